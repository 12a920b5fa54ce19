// Reading an input file that a user or someone else's bundle names: only a regular file, and only up
// to a bound, so that /dev/zero, a FIFO or a huge file ends in a message rather than a hang or an
// exhausted memory.
#pragma once

#include <cstddef>
#include <string>

#include "common/input_limits.h"

namespace tuner {

// A regular file open for blocking reads. Opening never waits for a FIFO's writer; throws UsageError
// naming `path` (after `what`, e.g. "the T1 file", if any) when it cannot be opened or is not a regular file (a
// device, a FIFO, a socket, a folder). Closes the descriptor when it ends.
class RegularInputFile {
 public:
  RegularInputFile(const std::string& path, const std::string& what);
  ~RegularInputFile();
  RegularInputFile(const RegularInputFile&) = delete;
  RegularInputFile& operator=(const RegularInputFile&) = delete;

  int fd() const { return fd_; }
  std::size_t size_bytes() const { return size_bytes_; }

 private:
  int fd_ = -1;
  std::size_t size_bytes_ = 0;
};

// The whole file, as RegularInputFile opens it. Throws UsageError also when it is larger than
// `max_bytes` or cannot be read.
std::string ReadInputFile(const std::string& path, std::size_t max_bytes, const std::string& what);

// The same within one of the input limits (kInputBytes, kDescriptionBytes): past it, the message
// names the limit and how to raise it.
std::string ReadInputFile(const std::string& path, InputLimit limit, const std::string& what);

}  // namespace tuner
