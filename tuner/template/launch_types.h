// What a kernel launch is made of, as the template describes it and the worker runs it: the launch
// geometry, the element types of arguments (element_types.h), how buffers are filled, and the symbols filled from
// buffers. Plain types and their text forms only (no TOML, no expressions, no search space), so the
// worker protocol (measure/worker_protocol.h) needs nothing more of a template.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "template/element_types.h"

namespace tuner {

struct LaunchGeometry {
  std::array<long long, 3> grid{1, 1, 1};
  std::array<long long, 3> block{1, 1, 1};
  long long shared_bytes = 0;  // dynamic

  long long ThreadsPerBlock() const { return block[0] * block[1] * block[2]; }
  std::string Json() const;  // the text the store keeps (launch_json): to_json's object, dumped
};

// The one JSON form of a geometry, {"block":[..],"grid":[..],"shared_bytes":N}: the stored
// launch_json and the worker protocol's geometry both (nlohmann::json finds these by ADL).
void to_json(nlohmann::json& j, const LaunchGeometry& geometry);
void from_json(const nlohmann::json& j, LaunchGeometry& geometry);  // nlohmann's exceptions when malformed

// kRandomInt: integers for exact sums (see FillBuffer). kFile: the contents of a .npy file
// (ArgSpec::file); for an output, restored before every launch.
enum class BufferInit { kRandom, kZero, kOne, kIndex, kPoison, kRandomInt, kFile };
std::string ToString(BufferInit init);

// Whether an output of this init starts from contents of its own (a file's, random data, ...): the
// kernel reads and writes it, so those contents are restored before every launch, checked ones
// too, and the reference starts from the same. Poison and zero are no contents the kernel reads.
bool StartsFromContents(BufferInit init);

struct SymbolSpec {
  std::string name;  // the __constant__ / __device__ variable
  std::string from;  // the buffer argument whose contents it receives
};

}  // namespace tuner
