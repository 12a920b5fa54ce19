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
  // The file at `relative` below `folder`, as OpenInside opens it; refused as above, and when a part
  // of the path is a symbolic link.
  RegularInputFile(const std::string& folder, const std::string& relative, const std::string& what);
  ~RegularInputFile();
  RegularInputFile(const RegularInputFile&) = delete;
  RegularInputFile& operator=(const RegularInputFile&) = delete;

  int fd() const { return fd_; }
  std::size_t size_bytes() const { return size_bytes_; }

 private:
  // Takes `fd` (-1: the open failed, errno says why) and checks it on the descriptor.
  RegularInputFile(int fd, const std::string& path, const std::string& what);

  int fd_ = -1;
  std::size_t size_bytes_ = 0;
};

// Opens `relative` (no `..`, not absolute) below `folder` once: each part of the path from the
// descriptor of the one before it (openat), none followed if it is a symbolic link (O_NOFOLLOW), so
// that whatever changes in the folder meanwhile, the file read is the one beneath it. Returns the
// descriptor, or -1 with errno set (ELOOP: a link; EXDEV: `..` or an absolute path).
int OpenInside(const std::string& folder, const std::string& relative);

// The whole file, as RegularInputFile opens it. Throws UsageError also when it is larger than
// `max_bytes` or cannot be read.
std::string ReadInputFile(const std::string& path, std::size_t max_bytes, const std::string& what);
// The whole file at `relative` below `folder`, opened once as OpenInside opens it.
std::string ReadInputFileInside(const std::string& folder, const std::string& relative, std::size_t max_bytes,
                                const std::string& what);

// The same within one of the input limits (kInputBytes, kDescriptionBytes): past it, the message
// names the limit and how to raise it.
std::string ReadInputFile(const std::string& path, InputLimit limit, const std::string& what);

}  // namespace tuner
