// A T1 description (the autotuning community's JSON input format, read by Kernel Tuner and KTT and
// used by the benchmark collection benchmark_hub) turned into a template of ours: its parameters,
// Python-like constraints, problem size, launch sizes and arguments become a TOML description
// beside a copy of its kernel source (kernel_templates/README.md, "Importing a T1 description").
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tuner {

struct ImportedTemplate {
  std::string name;
  std::string t1_path;
  std::string description;       // the TOML text
  std::string source_path;       // the kernel source the T1 file names
  std::string source_file_name;  // the copy's name, beside the description
  std::vector<std::pair<std::string, std::string>> constraints;  // T1's expression, its translation
  std::vector<std::string> notes;  // what the import chose or left out, one line each
};

// Reads and translates the T1 file; `name` overrides the template's name (default: General's
// BenchmarkName, else the file's stem). Throws UsageError "FILE: FIELD: problem" for malformed JSON,
// a missing or mistyped field, or what the template format cannot express. Reads only.
ImportedTemplate ImportT1(const std::string& t1_path, const std::string& name);

struct WrittenTemplate {
  std::string description_path;
  std::string size_key;    // the default problem size
  std::size_t candidates = 0;  // valid at that size
};

// Writes NAME.toml, the kernel source and the headers it includes into `folder` (created if
// missing) after loading the description as a template and counting its candidates. Throws
// UsageError, having written nothing, when a file of one of those names with other contents is
// there, the template does not load, or a constraint cannot be evaluated for a candidate.
WrittenTemplate WriteImportedTemplate(const ImportedTemplate& imported, const std::string& folder);

}  // namespace tuner
