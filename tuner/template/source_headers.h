// The headers a kernel source includes with #include "..." from beside itself or from the folders
// its options name with -I (a project's own include folders). They are handed to
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

// Follows quoted includes through nested headers, each looked for beside its includer, then in
// `include_dirs` in order, as the compilers do. An include found nowhere is left to the compiler (a
// system header). Throws TemplateError when one include name would mean two different files.
std::vector<SourceHeader> FindSourceHeaders(const std::string& source_path, const std::string& source_text,
                                            const std::vector<std::string>& include_dirs = {});

// The folders of the -I options in `options` ("-Idir", "-I dir", "--include-path=dir",
// "--include-path dir"), a relative one resolved against `base`.
std::vector<std::string> IncludeDirs(const std::vector<std::string>& options, const std::string& base);

}  // namespace tuner
