// A kernel template: the CUDA source plus its parsed TOML description (format in
// kernel_templates/README.md).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/errors.h"
#include "base/timing_mode.h"
#include "template/launch_types.h"
#include "template/source_headers.h"

namespace tuner {

// A malformed description or source; the message names the file, the line and the field. Bad input,
// so a command that meets one exits 2.
struct TemplateError : UsageError {
  using UsageError::UsageError;
};

struct SizeSpec {
  std::string name;
  long long default_value = 0;
};

struct ParamSpec {
  std::string name;
  std::vector<long long> values;
  std::vector<std::string> labels;  // empty, or one per value
  bool host = false;                // used by the host side of a [pipeline] only: no macro of the source
};

struct LaunchSpec {
  std::vector<std::string> grid;   // 1 to 3 expressions
  std::vector<std::string> block;  // 1 to 3 expressions
  std::string shared_bytes = "0";
};

struct ArgSpec {
  std::string name;
  ScalarType type = ScalarType::kFloat;
  bool is_buffer = false;
  std::string length;  // buffers: elements
  std::string value;   // scalars
  BufferInit init = BufferInit::kZero;
  bool output = false;
  bool accumulate = false;  // an output the kernel adds into: checked launches start from `init`, not poison
  std::string file;         // init = "file:PATH": PATH resolved against the description's folder
};

struct CheckSpec {
  std::string kernel;                           // reference entry point; empty: every output has an expected file
  bool own_configuration = false;               // the template's own kernel at `params`, not an independent one
  std::map<std::string, std::string> expected;  // output argument -> .npy file of its expected contents
  std::map<std::string, long long> params;      // complete: every parameter has a value
  // Parameters whose value changes the right output (a stencil's number of time steps): each
  // candidate is checked against the reference run with its own values of these (`params` else).
  std::vector<std::string> output_depends_on;
  LaunchSpec launch;
  std::string reduction;      // expression over sizes: the terms each output element sums; "" for none
  std::string atol = "0";     // expressions over sizes: the error of a sum grows with its length; when the
  std::string rtol = "1e-5";  // description gives none, derived from the output type (default_tolerance.h)
};

// A size with data of its own ([[data_size]]): at this size every data file (init = "file:..." and
// [check] expected) is read from `folder` at the path it has relative to the description.
struct DataSizeSpec {
  std::string size_key;                      // "65536x256": every size variable, declared order
  std::string folder;                        // resolved against the description's folder
  std::map<std::string, std::string> files;  // data file at the default size -> the file at this size
};

struct WorkSpec {
  std::string bytes;  // empty when not given
  std::string flops;
};

// [pipeline]: the host copies the buffers to the device in chunks, runs the kernel per chunk and
// copies the results back, over several streams (kernel_templates/README.md). Expressions over
// parameters and sizes, evaluated per candidate (pipeline_spec.h).
struct PipelineSpec {
  bool enabled = false;
  std::string size;   // the size variable the chunks split
  std::string chunk;  // elements of `size` per chunk
  std::string streams = "1";
  std::string memory = "0";          // HostMemory: 0 pageable, 1 pinned, 2 managed, 3 managed and prefetched
  std::string order = "0";           // IssueOrder: 0 depth-first, 1 breadth-first
  std::vector<std::string> chunked;  // buffer arguments split into chunks; the others move whole
};

// [arch_specific]: the candidates that need an architecture-specific target (arch_specific.h).
struct ArchSpecificSpec {
  std::string when;    // a condition over sizes and parameters; empty: no candidate needs a target
  std::string target;  // "sm_90a", "sm_100f"
  std::string why;     // what needs it, for the reason a candidate is invalid elsewhere: "wgmma"
};

// Which compiler builds the candidates: NVRTC, the toolkit's nvcc (a file with host code or the C
// and C++ standard headers, which NVRTC cannot take), or NVRTC first and nvcc where NVRTC cannot
// take the file (template/README: "compiler").
enum class CompilerChoice { kAuto, kNvrtc, kNvcc };

struct TemplateSpec {
  std::string name;
  std::string summary;
  std::string kernel;
  std::string description_path;
  std::string source_path;
  std::string source_text;
  std::vector<SourceHeader> headers;  // included from beside the source
  std::string hash;                   // of the description, the source and its headers: a new hash is a new version
  bool replaces_shipped = false;      // a user's template that is meant to take a shipped one's name
  std::vector<std::string> constraints;
  std::vector<std::string> options;
  CompilerChoice compiler = CompilerChoice::kAuto;
  std::vector<SizeSpec> sizes;
  std::vector<ParamSpec> params;
  std::vector<std::string> template_arguments;  // parameters the kernel's name passes to a C++ template: no macros
  LaunchSpec launch;
  std::vector<ArgSpec> args;
  std::vector<SymbolSpec> symbols;
  CheckSpec check;
  WorkSpec work;
  std::vector<DataSizeSpec> data_sizes;  // sizes other than the defaults that have data files of their own
  PipelineSpec pipeline;
  std::optional<TimingMode> timing_mode;  // [timing] mode; none: the template says nothing (template/timing_choice.h)
  ArchSpecificSpec arch_specific;
};

// Reads a description and its source, strictly (kernel_templates/README.md has the format): an
// unknown key, a name that is no identifier, a duplicate, a value out of range at the default sizes
// or a kernel the source does not mention is a TemplateError.
TemplateSpec LoadTemplateFile(const std::string& description_path);

// What `tune` says on stderr of a template checked against one of its own configurations.
std::string OwnConfigurationWarning(const TemplateSpec& spec);

// The label of a parameter value ("padded") or the number itself.
std::string ValueLabel(const ParamSpec& param, long long value);

}  // namespace tuner
