// Reading a text input line by line without trusting it: a file must be a regular file (not
// /dev/zero, a FIFO or a folder), a line may not grow past a bound, and a read error is an error,
// never taken for the end of the input.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace tuner {

class RegularInputFile;

class LineReader {
 public:
  // "-" reads stdin (whatever it is: a pipe is fine there; the line bound still holds). Throws
  // UsageError naming `path` when it cannot be opened or is not a regular file. A line may be as long
  // as common/input_limits' kLineBytes, or `max_line_bytes` when given.
  explicit LineReader(const std::string& path, std::size_t max_line_bytes = 0);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its "\n"; false at the end. Throws UsageError for a line over the bound,
  // std::runtime_error for a read error.
  bool Next(std::string* line);
  int line_number() const { return line_number_; }

 private:
  bool Fill();

  std::string path_;
  std::size_t max_line_bytes_;
  bool bound_is_the_limit_;                 // the message then says how to raise it
  std::unique_ptr<RegularInputFile> file_;  // none for stdin
  int fd_ = -1;
  std::string buffer_;
  std::size_t start_ = 0;  // unread bytes of buffer_ begin here
  bool at_end_ = false;
  int line_number_ = 0;
};

}  // namespace tuner
