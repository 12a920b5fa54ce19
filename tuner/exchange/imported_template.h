// A template made from another format's description (t1_import): its TOML text and the kernel
// source it names, written into a folder only once they load as a template.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/progress_bar.h"

namespace tuner {

// The most a kernel source or header of a bundle may hold.
inline constexpr std::size_t kMaxSourceBytes = 16 << 20;

struct ImportedTemplate {
  std::string name;
  std::string origin_path;                                       // the description it was imported from
  std::string description;                                       // the TOML text
  std::string source_path;                                       // the kernel source the T1 file names
  std::string source_text;                                       // as read once, when the description was
  std::string source_file_name;                                  // the copy's name, beside the description
  // A header included before the source (an OpenCL kernel's compatibility header, or CompilerOptions'
  // -include), copied beside it as header_file_name; empty when there is none.
  std::string header_path;
  std::string header_text;
  std::string header_file_name;
  std::vector<std::pair<std::string, std::string>> constraints;  // T1's expression, its translation
  std::vector<std::string> notes;                                // what the import chose or left out, one line each
};

struct WrittenTemplate {
  std::string description_path;
  std::string size_key;        // the default problem size
  std::size_t candidates = 0;  // valid at that size
};

// Writes NAME.toml, the kernel source (after an #include of the header, when there is one) and the
// headers it includes into `folder` (created if missing) after loading the description as a
// template and counting its candidates. Throws UsageError, having written nothing, when a file of
// one of those names with other contents is there, two of them (or one and the description) would
// have one name, the template does not load, or a constraint cannot be evaluated for a candidate; a
// write that fails half-way removes what it wrote. `progress` (if given) hears how far the count
// of the candidates is (search_space.h: CountCandidates).
WrittenTemplate WriteImportedTemplate(const ImportedTemplate& imported, const std::string& folder,
                                      ProgressBar* progress = nullptr);

}  // namespace tuner
