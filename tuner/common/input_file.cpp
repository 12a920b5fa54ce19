#include "common/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "base/errors.h"
#include "common/option_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

// O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
constexpr int kReadFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;

std::string MegabytesText(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

// `fd` closed, errno kept: the caller reports the error that came before.
void CloseKeepingErrno(int fd) {
  const int saved = errno;
  close(fd);
  errno = saved;
}

std::string TooLarge(const std::string& named, std::size_t max_bytes) {
  return named + " is larger than " + MegabytesText(max_bytes) + ", more than such a file can be";
}

// The file's bytes, refused with `too_large` past `max_bytes` (also where it grows while read).
std::string ReadAll(const RegularInputFile& file, std::size_t max_bytes, const std::string& named,
                    const std::string& too_large) {
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

int OpenInside(const std::string& folder, const std::string& relative) {
  const fs::path path(relative);
  std::vector<std::string> parts;
  for (const fs::path& part : path.relative_path()) {
    if (part == "..") return errno = EXDEV, -1;
    if (part != "." && !part.empty()) parts.push_back(part.string());
  }
  if (path.has_root_path() || parts.empty()) return errno = EXDEV, -1;
  int dir = open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (std::size_t i = 0; dir >= 0 && i + 1 < parts.size(); ++i) {
    const int next = openat(dir, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    CloseKeepingErrno(dir);
    dir = next;
  }
  if (dir < 0) return -1;
  const int fd = openat(dir, parts.back().c_str(), kReadFlags | O_NOFOLLOW);
  CloseKeepingErrno(dir);
  return fd;
}

RegularInputFile::RegularInputFile(const std::string& path, const std::string& what)
    : RegularInputFile(open(path.c_str(), kReadFlags), path, what) {}

RegularInputFile::RegularInputFile(const std::string& folder, const std::string& relative, const std::string& what)
    : RegularInputFile(OpenInside(folder, relative), (fs::path(folder) / relative).string(), what) {}

RegularInputFile::RegularInputFile(int fd, const std::string& path, const std::string& what) : fd_(fd) {
  const int open_errno = errno;
  const std::string named = what.empty() ? Quoted(path) : what + " " + Quoted(path);
  if (fd_ < 0)
    throw UsageError("cannot read " + named + ": " +
                     (open_errno == ELOOP   ? "it is a symbolic link, or in a folder that is one, which is not followed"
                      : open_errno == EXDEV ? "it is not inside its folder"
                                            : std::strerror(open_errno)));
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

std::string ReadInputFile(const std::string& path, std::size_t max_bytes, const std::string& what) {
  const std::string named = what + " " + Quoted(path);
  return ReadAll(RegularInputFile(path, what), max_bytes, named, TooLarge(named, max_bytes));
}

std::string ReadInputFileInside(const std::string& folder, const std::string& relative, std::size_t max_bytes,
                                const std::string& what) {
  const std::string named = what + " " + Quoted((fs::path(folder) / relative).string());
  return ReadAll(RegularInputFile(folder, relative, what), max_bytes, named, TooLarge(named, max_bytes));
}

std::string ReadInputFile(const std::string& path, InputLimit limit, const std::string& what) {
  const std::string named = what + " " + Quoted(path);
  return ReadAll(RegularInputFile(path, what), LimitValue(limit), named, named + ": " + LimitMessage(limit));
}

}  // namespace tuner
