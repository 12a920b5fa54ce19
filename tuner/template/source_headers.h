// The headers a kernel source includes with #include "..." from beside itself. They are handed to
// NVRTC by name, and hashed into the template's version and the compile cache's key, so that an
// edited header is never compiled from a stale cache or mixed into older results.
#pragma once

#include <string>
#include <vector>

namespace tuner {

struct SourceHeader {
  std::string include_name;  // as written between the quotes
  std::string path;          // the file it was found at
  std::string text;
};

// Follows quoted includes, relative to the including file, through nested headers. An include not
// found beside its includer is left to NVRTC (a system or -I header). Throws TemplateError when one
// include name would mean two different files.
std::vector<SourceHeader> FindSourceHeaders(const std::string& source_path, const std::string& source_text);

}  // namespace tuner
