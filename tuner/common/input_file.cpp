#include "common/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.h"
#include "common/option_values.h"

namespace tuner {

namespace {

std::string MegabytesText(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

}  // namespace

RegularInputFile::RegularInputFile(const std::string& path, const std::string& what) {
  const std::string named = what.empty() ? Quoted(path) : what + " " + Quoted(path);
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  fd_ = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw UsageError("cannot read " + named + ": " + std::strerror(errno));
  struct stat info {};
  const char* refused = fstat(fd_, &info) != 0   ? std::strerror(errno)
                        : S_ISDIR(info.st_mode)  ? "it is a folder; give a file"
                        : !S_ISREG(info.st_mode) ? "it is not a regular file (a device, a FIFO or a socket)"
                        : fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) & ~O_NONBLOCK) != 0 ? std::strerror(errno)
                                                                                      : nullptr;
  if (refused) {
    close(fd_);
    throw UsageError("cannot read " + named + ": " + refused);
  }
  size_bytes_ = static_cast<std::size_t>(info.st_size);
}

RegularInputFile::~RegularInputFile() { close(fd_); }

namespace {

std::string ReadBounded(const std::string& path, std::size_t max_bytes, const std::string& what,
                        const std::string& too_large) {
  const std::string named = what + " " + Quoted(path);
  const RegularInputFile file(path, what);
  if (file.size_bytes() > max_bytes) throw UsageError(too_large);
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(file.fd(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError("cannot read " + named + ": " + std::strerror(errno));
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) throw UsageError(too_large);  // it grew while read
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

std::string ReadInputFile(const std::string& path, std::size_t max_bytes, const std::string& what) {
  return ReadBounded(
      path, max_bytes, what,
      what + " " + Quoted(path) + " is larger than " + MegabytesText(max_bytes) + ", more than such a file can be");
}

std::string ReadInputFile(const std::string& path, InputLimit limit, const std::string& what) {
  return ReadBounded(path, LimitValue(limit), what, what + " " + Quoted(path) + ": " + LimitMessage(limit));
}

}  // namespace tuner
