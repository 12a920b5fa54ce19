// A T1 description (the autotuning community's JSON input format, read by Kernel Tuner and KTT and
// used by the benchmark collection benchmark_hub) turned into a template of ours: its parameters,
// Python-like constraints, problem size, launch sizes and arguments become a TOML description
// beside a copy of its kernel source (kernel_templates/README.md, "Importing a T1 description").
#pragma once

#include <string>
#include <vector>

#include "exchange/imported_template.h"

namespace tuner {

// What the user says beside the T1 file (tuner import t1's options); empty: the description decides.
struct T1ImportOptions {
  std::string name;           // the template's name (default: General.BenchmarkName, else the file's stem)
  std::string kernel_file;    // the kernel source, instead of the one KernelFile names
  std::string opencl_header;  // the header that makes an OpenCL kernel compile as CUDA
  std::vector<std::string> output_depends_on;  // parameters whose value changes the right output ([check])
};

// Reads and translates the T1 file. Its KernelFile (and a header its CompilerOptions' -include
// names) is taken from the description's folder and may not leave it. Throws UsageError "FILE:
// FIELD: problem" for malformed JSON, an unknown key, a missing or mistyped field, or what the
// template format cannot express. Reads only.
ImportedTemplate ImportT1(const std::string& t1_path, const T1ImportOptions& options);

}  // namespace tuner
