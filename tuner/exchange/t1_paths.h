// The files a T1 description names (KernelFile, a compatibility header) are someone else's choice:
// they are taken from the description's folder and may not leave it, so that an imported bundle
// cannot copy /proc/self/environ or ~/.ssh into the template it makes.
#pragma once

#include <string>

namespace tuner {

// `named` (as written in the description's `field`) resolved from `folder`: a path with `..`, an
// absolute path, a symbolic link (or a link in the path) out of the folder, and a file that is not
// there or not a regular file are refused with UsageError "FILE: FIELD: problem"; `hint` says what
// to do instead. Returns the path to read.
std::string ResolveInsideFolder(const std::string& description_path, const std::string& field,
                                const std::string& named, const std::string& hint);

}  // namespace tuner
