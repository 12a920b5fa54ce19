// The messages between the sweep (supervisor) and the GPU worker process: one JSON object per
// line on the worker's stdin and stdout. Kept in one place so both sides agree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "template/pipeline_run.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

// A kernel argument as the worker sees it: a buffer by name, or a scalar with its value.
struct LaunchArg {
  std::string buffer;  // empty for scalars
  ScalarType type = ScalarType::kInt;
  double value = 0;
};

struct BufferDecl {
  std::string name;
  ScalarType type = ScalarType::kFloat;
  long long count = 0;
  BufferInit init = BufferInit::kZero;
  bool output = false;
  std::string file;      // kFile: the .npy file the worker reads once, at setup
  std::string expected;  // outputs: a .npy file of the expected contents ("" : the reference kernel's)
};

struct KernelLaunch {
  std::string cubin_path;
  std::string kernel;  // lowered name
  LaunchGeometry geometry;
  std::vector<LaunchArg> args;
  std::vector<SymbolSpec> symbols;
  PipelineRun pipeline;  // enabled: the launch is run chunk by chunk from host memory to host memory
};

struct SetupRequest {
  int gpu = 0;
  unsigned long long seed = 0;
  std::vector<BufferDecl> buffers;
  KernelLaunch reference;  // cubin_path "" when every output has an expected file
  double atol = 0;
  double rtol = 0;
};

struct MeasureRequest {
  KernelLaunch launch;
  double time_cap_ms = 300;   // for the samples of one candidate
  int min_samples = 5;
  int max_samples = 200;
  double target_spread = 0.01;  // stop sampling once (p75 - p25) / median is below this
  double best_ms = 0;  // the best median so far: a candidate far slower gets only a few samples
  bool estimate_only = false;  // one timed launch: the first pass of a two-pass sweep
};

// Every reply of the worker carries the seconds it spent on the request, from reading it to writing
// the reply: the sweep's GPU work (sweep_time.h).
constexpr const char* kWorkerSecondsKey = "worker_s";

nlohmann::json ToJson(const KernelLaunch& launch);
KernelLaunch LaunchFromJson(const nlohmann::json& json);
nlohmann::json ToJson(const SetupRequest& request);
nlohmann::json ToJson(const MeasureRequest& request);
SetupRequest SetupFromJson(const nlohmann::json& json);
MeasureRequest MeasureFromJson(const nlohmann::json& json);

}  // namespace tuner
