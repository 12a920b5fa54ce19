#include "common/line_reader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "base/errors.h"
#include "common/input_file.h"
#include "common/input_limits.h"
#include "common/option_values.h"

namespace tuner {

namespace {

constexpr std::size_t kChunkBytes = 1 << 16;

}  // namespace

LineReader::LineReader(const std::string& path, std::size_t max_line_bytes)
    : path_(path == "-" ? "stdin" : path),
      max_line_bytes_(max_line_bytes ? max_line_bytes : LimitValue(InputLimit::kLineBytes)),
      bound_is_the_limit_(max_line_bytes == 0) {
  if (path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    file_ = std::make_unique<RegularInputFile>(path, "");
    fd_ = file_->fd();
  }
}

LineReader::~LineReader() = default;

bool LineReader::Fill() {
  if (start_ > 0) {  // drop what was handed out, so the buffer holds at most one line and a chunk
    buffer_.erase(0, start_);
    start_ = 0;
  }
  char chunk[kChunkBytes];
  ssize_t n;
  do n = read(fd_, chunk, sizeof chunk);
  while (n < 0 && errno == EINTR);
  if (n < 0) throw std::runtime_error("reading " + Quoted(path_) + " failed: " + std::strerror(errno));
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return n > 0;
}

bool LineReader::Next(std::string* line) {
  for (std::size_t searched = start_;;) {
    const std::size_t newline = buffer_.find('\n', searched);
    const std::size_t end = newline == std::string::npos ? buffer_.size() : newline;
    if (end - start_ > max_line_bytes_)
      throw UsageError(Quoted(path_) + ":" + std::to_string(line_number_ + 1) + ": " +
                       (bound_is_the_limit_ ? LimitMessage(InputLimit::kLineBytes)
                                            : "a line of more than " + std::to_string(max_line_bytes_) + " bytes") +
                       "; is this a text file of lines?");
    if (newline != std::string::npos || at_end_) {
      if (newline == std::string::npos && start_ == buffer_.size()) return false;
      line->assign(buffer_, start_, end - start_);
      start_ = newline == std::string::npos ? buffer_.size() : newline + 1;
      ++line_number_;
      return true;
    }
    searched = buffer_.size() - start_;
    at_end_ = !Fill();
    searched += start_;  // Fill moved the unread bytes to the front
  }
}

}  // namespace tuner
