// The files a T1 description names (KernelFile, a compatibility header) are someone else's choice:
// they are taken from the description's folder and may not leave it, so that an imported bundle
// cannot copy /proc/self/environ or ~/.ssh into the template it makes. Each is opened once, part by
// part from the folder's descriptor without following a symbolic link (common/input_file.h:
// OpenInside), and read from that descriptor: a link flipped meanwhile cannot lead out.
#pragma once

#include <cstddef>
#include <string>

namespace tuner {

struct FolderFile {
  std::string path;  // where it was read, for messages and the names of its copies
  std::string text;
};

// `named` (as written in the description's `field`) read from the description's folder, at most
// `max_bytes`: a path with `..`, an absolute path, a symbolic link (or a link in the path), and a
// file that is not there or not a regular file are refused with UsageError "FILE: FIELD: problem";
// `hint` says what to do instead.
FolderFile ReadInsideFolder(const std::string& description_path, const std::string& field, const std::string& named,
                            const std::string& hint, std::size_t max_bytes);

}  // namespace tuner
