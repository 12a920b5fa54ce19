#include "common/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/errors.h"
#include "common/option_values.h"

namespace tuner {

namespace {

// Closes the descriptor however the read ends.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string MegabytesText(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

}  // namespace

std::string ReadInputFile(const std::string& path, std::size_t max_bytes, const std::string& what) {
  const std::string named = what + " " + Quoted(path);
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  const Descriptor fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) throw UsageError("cannot read " + named + ": " + std::strerror(errno));
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) throw UsageError("cannot read " + named + ": " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw UsageError(named + " is a folder; give a file");
  if (!S_ISREG(info.st_mode)) throw UsageError(named + " is not a regular file (a device, a FIFO or a socket)");
  if (static_cast<std::size_t>(info.st_size) > max_bytes)
    throw UsageError(named + " is larger than " + MegabytesText(max_bytes) + ", more than such a file can be");
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError("cannot read " + named + ": " + std::strerror(errno));
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes)  // it grew while being read
      throw UsageError(named + " is larger than " + MegabytesText(max_bytes) + ", more than such a file can be");
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace tuner
