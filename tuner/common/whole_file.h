// Writing a file whole: into a temporary beside it, renamed into place, so that a reader or a
// failure never sees half of it. The temporary is created exclusively under a name nobody can
// guess (no link planted at it is followed); a character device or FIFO (/dev/null, a pipe) is
// written directly instead of being replaced by a regular file.
#pragma once

#include <sys/stat.h>

#include <string>
#include <string_view>

namespace tuner {

class WholeFileWriter {
 public:
  // Creates the folders up to `path` and opens what will be written. A symbolic link at `path` is
  // written through: its target is replaced, the link stays. Throws UsageError naming the path when
  // it cannot be written (no permission, a folder, a block device or socket).
  explicit WholeFileWriter(const std::string& path);
  ~WholeFileWriter();  // removes the temporary unless Commit() succeeded
  WholeFileWriter(const WholeFileWriter&) = delete;
  WholeFileWriter& operator=(const WholeFileWriter&) = delete;

  void Append(std::string_view text);
  // Writes what is buffered and puts the file in place. Throws std::runtime_error when that fails;
  // the file at `path` is then unchanged.
  void Commit();

 private:
  void OpenDirectly();
  void OpenTemporary(const struct stat* existing);  // `existing`: the file replaced, if any
  void Flush();

  std::string path_;       // as given, for messages
  std::string target_;     // what is replaced: `path_` with symbolic links resolved
  std::string temporary_;  // empty when writing directly to a special file
  int fd_ = -1;
  std::string buffer_;
  bool committed_ = false;
};

// WholeFileWriter in one call. Throws as it does.
void WriteWholeFile(const std::string& path, const std::string& contents);

}  // namespace tuner
