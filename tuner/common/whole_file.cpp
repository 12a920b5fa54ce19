#include "common/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "base/errors.h"
#include "base/random_hex.h"
#include "common/option_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBufferBytes = 1 << 20;

std::string SystemError() { return std::strerror(errno); }

// `path` with symbolic links resolved, so that writing replaces the link's target and not the link.
std::string ResolvedTarget(const std::string& path) {
  std::error_code error;
  if (!fs::is_symlink(fs::symlink_status(path, error))) return path;
  const fs::path target = fs::canonical(path, error);
  if (error) throw UsageError("cannot write " + Quoted(path) + ": a symbolic link to nothing; remove it or give another name");
  return target.string();
}

// A name beside `target` that nobody can guess; the leading dot keeps it out of listings.
std::string TemporaryName(const std::string& target) {
  const fs::path path(target);
  return (path.parent_path() / ("." + path.filename().string().substr(0, 200) + ".tmp-" + RandomHex(8))).string();
}

}  // namespace

WholeFileWriter::WholeFileWriter(const std::string& path) : path_(path), target_(ResolvedTarget(path)) {
  struct stat existing {};
  if (stat(target_.c_str(), &existing) != 0) {
    OpenTemporary(nullptr);
    return;
  }
  const mode_t type = existing.st_mode & S_IFMT;
  if (type == S_IFCHR || type == S_IFIFO) {  // /dev/null, a pipe: never replaced
    OpenDirectly();
    return;
  }
  if (type == S_IFDIR) throw UsageError("cannot write " + Quoted(path_) + ": is a folder; give a file name");
  if (type != S_IFREG)
    throw UsageError("cannot write " + Quoted(path_) + ": a block device or socket; give a file name");
  if (access(target_.c_str(), W_OK) != 0)  // renaming over it would bypass its permissions
    throw UsageError("cannot write " + Quoted(path_) + ": " + SystemError());
  OpenTemporary(&existing);
}

void WholeFileWriter::OpenDirectly() {
  fd_ = open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw UsageError("cannot write " + Quoted(path_) + ": " + SystemError());
}

void WholeFileWriter::OpenTemporary(const struct stat* existing) {
  std::error_code ignored;  // a folder that cannot be made shows as the failure to create the file
  if (fs::path(target_).has_parent_path()) fs::create_directories(fs::path(target_).parent_path(), ignored);
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temporary_ = TemporaryName(target_);
    fd_ = open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt == 100)) {
      const std::string reason = SystemError();
      temporary_.clear();
      throw UsageError("cannot write " + Quoted(path_) + ": " + reason);
    }
  }
  if (existing) fchmod(fd_, existing->st_mode & 07777);  // a private file stays private
}

WholeFileWriter::~WholeFileWriter() {
  if (fd_ >= 0) close(fd_);
  if (!committed_ && !temporary_.empty()) unlink(temporary_.c_str());
}

void WholeFileWriter::Append(std::string_view text) {
  buffer_.append(text);
  if (buffer_.size() >= kBufferBytes) Flush();
}

void WholeFileWriter::Flush() {
  for (std::size_t written = 0; written < buffer_.size();) {
    const ssize_t n = write(fd_, buffer_.data() + written, buffer_.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error("cannot write " + Quoted(path_) + ": " + SystemError());
    written += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void WholeFileWriter::Commit() {
  Flush();
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) throw std::runtime_error("cannot write " + Quoted(path_) + ": " + SystemError());
  if (!temporary_.empty() && std::rename(temporary_.c_str(), target_.c_str()) != 0)
    throw std::runtime_error("cannot write " + Quoted(path_) + ": " + SystemError());
  committed_ = true;
}

void WriteWholeFile(const std::string& path, const std::string& contents) {
  WholeFileWriter writer(path);
  writer.Append(contents);
  writer.Commit();
}

}  // namespace tuner
