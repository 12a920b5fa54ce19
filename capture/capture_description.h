// What a capture knows about one launch, and the template description (TOML) it writes for the
// tuner: sizes, parameters, launch geometry, arguments with their files, the expected outputs and
// a work estimate. No CUDA, so it is unit-tested on its own.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tuner::capture {

enum class ArgRole { kScalar, kIn, kOut, kInOut };

struct CapturedArg {
  std::string name;
  std::string descr;  // .npy type code: "<f4", "<u4", ...
  ArgRole role = ArgRole::kIn;
  std::uint64_t count = 0;      // buffers: elements
  std::string value;            // scalars: the value as text, exact
  bool initially_zero = false;  // kInOut: every byte was 0 before the launch (init "zero", no file)
};

struct CapturedParam {
  std::string name;
  long long value = 0;            // the application's own
  std::vector<long long> values;  // to tune; empty: only the application's value
};

// A further size of a kernel already captured: its sizes, its arguments (the first size's names,
// roles and types; their counts and values here) and the folder of its data inside the capture.
struct CapturedSize {
  std::vector<std::pair<std::string, long long>> sizes;
  std::vector<CapturedArg> args;
  std::string folder;  // "sizes/65536x256"
};

struct CapturedLaunch {
  std::string name;         // the template's name
  std::string kernel;       // entry point or C++ name expression for NVRTC
  std::string source_path;  // the application's kernel source
  std::string source;       // its file name inside the capture
  std::vector<std::pair<std::string, long long>> sizes;
  std::vector<CapturedParam> params;
  std::vector<std::string> constraints;
  std::vector<std::string> options;      // NVRTC options
  std::vector<std::string> grid, block;  // expressions; literal numbers when the application gave none
  std::string shared_bytes = "0";
  bool geometry_from_application = false;  // expressions given by the launch call
  std::vector<CapturedArg> args;
  bool has_tolerance = false;
  double atol = 0, rtol = 0;
  std::string provenance;                // "from ./app (pid 123) on NVIDIA H100, 2026-..."
  std::vector<CapturedSize> more_sizes;  // the other sizes captured, in the order first seen
};

// How many distinct sizes of one kernel a process captures: the first launch of each. Launches at
// further new sizes are not captured (the capture says so once on stderr).
constexpr std::size_t kMaxCapturedSizes = 16;

// "1048576x256": a launch's sizes joined by 'x' (the tuner's size key); "" when it declared none.
std::string SizeKey(const std::vector<std::pair<std::string, long long>>& sizes);
// Where a further size's data live inside the capture.
std::string SizeFolder(const std::string& size_key);

// "float", "uint", ...: the tuner's name of a .npy type code; throws std::invalid_argument for others.
std::string TunerType(const std::string& descr);

// Where a buffer's data and expected output live inside the capture.
std::string InputFile(const std::string& arg);
std::string ExpectedFile(const std::string& arg);

// The description, ready for `tuner tune NAME --templates CAPTURE_DIR` (with further sizes:
// `--sizes captured`): one size as ever; several with lengths, scalars and work written as
// expressions over the sizes where they change, and a [[data_size]] table per further size.
std::string DescriptionToml(const CapturedLaunch& launch);

}  // namespace tuner::capture
