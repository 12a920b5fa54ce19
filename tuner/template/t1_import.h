// A T1 description (the autotuning community's JSON input format, read by Kernel Tuner and KTT and
// used by the benchmark collection benchmark_hub) turned into a template of ours: its parameters,
// Python-like constraints, problem size, launch sizes and arguments become a TOML description
// beside a copy of its kernel source (kernel_templates/README.md, "Importing a T1 description").
#pragma once

#include <string>

#include "template/imported_template.h"

namespace tuner {

// Reads and translates the T1 file; `name` overrides the template's name (default: General's
// BenchmarkName, else the file's stem). Throws UsageError "FILE: FIELD: problem" for malformed JSON,
// a missing or mistyped field, or what the template format cannot express. Reads only.
ImportedTemplate ImportT1(const std::string& t1_path, const std::string& name);

}  // namespace tuner
