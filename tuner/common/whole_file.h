// Writing a file whole: into a temporary beside it, renamed into place, so that a reader or a
// failure never sees half of it.
#pragma once

#include <string>

namespace tuner {

// Creates the folders up to it. Throws std::runtime_error naming the path when it cannot be written;
// the temporary is then removed.
void WriteWholeFile(const std::string& path, const std::string& contents);

}  // namespace tuner
