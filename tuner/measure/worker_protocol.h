// The messages between the sweep (the supervisor, sweep/) and the GPU worker process (`tuner
// __worker`, worker.cpp): one request per line on the worker's stdin, one reply per line on its
// stdout. Every message is a struct here, with its one serialisation in worker_protocol.cpp, so
// neither side writes or reads the wire format itself.
//
// The sampling policy (how many samples, when to stop, the time cap) lives in the worker
// (sampling_policy.h): it decides after each sample, which only the worker sees, and the supervisor
// could only send its constants along. A measure request carries what the supervisor alone knows:
// the best time so far and whether this is a first pass's estimate. The supervisor keeps the plan
// of the sweep: which candidates are timed in which pass, the leaders timed in turns (and how many
// rounds), and how long it waits for a reply.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "base/candidate_status.h"
#include "base/timing_mode.h"
#include "measure/sample_stats.h"
#include "template/launch_types.h"  // LaunchGeometry, ScalarType, BufferInit, SymbolSpec
#include "template/pipeline_run.h"  // PipelineRun

namespace tuner {

// A message that does not follow this protocol: a bug of one side, never a candidate's fault.
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A kernel argument as the worker sees it: a buffer by name, or a scalar with its value.
struct LaunchArg {
  std::string buffer;  // empty for scalars
  ScalarType type = ScalarType::kInt;
  double value = 0;
  std::string name;  // the description's, for messages
};

struct BufferDecl {
  std::string name;
  ScalarType type = ScalarType::kFloat;
  long long count = 0;
  BufferInit init = BufferInit::kZero;
  bool output = false;
  std::string file;         // kFile: the .npy file the worker reads once, at setup
  std::string expected;     // outputs: a .npy file of the expected contents ("" : the reference kernel's)
  bool accumulate = false;  // an output the kernel adds into: a checked launch starts from `init`, not poison
};

struct KernelLaunch {
  std::string cubin_path;
  std::string kernel;  // lowered name
  LaunchGeometry geometry;
  std::vector<LaunchArg> args;
  PipelineRun pipeline;  // enabled: the launch is run chunk by chunk from host memory to host memory
};

// --- Replies -----------------------------------------------------------------------------------

// The request was done; nothing more to say.
struct Done {};

struct CopyBandwidthReply {
  double gbps = 0;  // (read + written bytes) / time
};

// The throttle accounting of a request's samples (measure/throttle_guard.h): how many times NVML's
// clock-event reasons and SM clock were read around them, and how many samples were discarded and
// taken again because power or thermal throttling had lowered the clock. `unavailable` says why
// nothing was read (no NVML, a GPU that does not report it); "" when it was.
struct ThrottleCount {
  long long reads = 0;
  long long discarded = 0;
  std::string unavailable;
};

// Adds `more` to `total`; the first reason it was unavailable is kept.
void AddThrottle(ThrottleCount& total, const ThrottleCount& more);

// Status: ok, wrong_result, launch_error, invalid or fault (a sticky CUDA error: the worker exits
// after replying).
struct MeasureReply {
  CandidateStatus status = CandidateStatus::kOk;
  std::string reason;
  int regs_per_thread = 0;  // of the loaded kernel; 0 when it was not loaded
  long long static_smem_bytes = 0;
  SampleStats time_ms;  // status "ok": the statistics of its samples (per launch, in every mode)
  ThrottleCount throttle;
};

struct InterleaveReply {
  std::vector<SampleStats> time_ms;  // one per launch, in the request's order
  ThrottleCount throttle;
};

// Each stage of a pipeline alone, on the whole problem and one stream, timed as a run is.
struct StageTimes {
  double h2d_ms = 0;
  double kernel_ms = 0;
  double d2h_ms = 0;
};

// Energy per launch from NVML's counter, over a window of launches back to back.
struct EnergyUse {
  double joules_per_launch = 0;
  double power_w = 0;    // the energy counter's mean power over the window (EnergyReading)
  double launch_ms = 0;  // the window's wall time per launch
};

// One candidate's counters and energy as asked for, or why either cannot be had in this worker
// (no CUPTI, no permission, no energy counter): a refusal holds for the whole process.
struct ProfileResult {
  std::string
      counters_json;  // the counters of one launch as the store keeps them (db/counters.h); "" when not measured
  std::optional<EnergyUse> energy;
  std::string counters_unavailable;
  std::string energy_unavailable;
};

struct ProfileReply {
  std::vector<ProfileResult> results;  // one per candidate, in the request's order
  // Where the worker's time went: "counters_setup" (waiting for CUPTI's configuration), "counters"
  // (of which "counters_load" and the range profiler's "counters_enable", "_configure", "_replay",
  // "_decode", "_evaluate"), "energy".
  std::map<std::string, double> timing_ms;
};

// --- Requests: each names its reply type and its kind on the wire ------------------------------

// Allocates and fills the buffers, runs the reference and keeps its outputs (every later request
// needs it).
struct SetupRequest {
  static constexpr const char* kOp = "setup";
  using Reply = Done;
  int gpu = 0;
  std::string uuid;  // the GPU's, for NVML (energy)
  unsigned long long seed = 0;
  std::vector<BufferDecl> buffers;
  std::vector<SymbolSpec> symbols;        // filled from their source buffers in every loaded kernel
  std::optional<KernelLaunch> reference;  // none when every output has an expected file
  double atol = 0;
  double rtol = 0;
  // How every candidate of the session is timed. The supervisor sends back_to_back or graph only
  // for a template whose launches can repeat with nothing between them (template/timing_choice.h).
  TimingMode timing = TimingMode::kIsolated;
  int batch_launches = 0;       // back_to_back and graph: the launches of a sample (0: about 1 ms of them)
  std::string reference_label;  // for messages: "the reference kernel k_ref (VARIANT=0)"
  std::string reference_group;  // the reference's values of [check] output_depends_on ("" when none)
};

// Runs a reference kernel and keeps its outputs (or the expected files'), which the checks of its
// group of candidates compare with: a request of its own, so that a reference that hangs is stopped
// at its own limit and said to be the reference. The setup's reference first, then one per further
// group of candidates whose output follows a parameter ([check] output_depends_on).
struct ReferenceRequest {
  static constexpr const char* kOp = "reference";
  using Reply = Done;
  std::string group;                   // "T=4": the candidates whose check it is ("" when none)
  std::optional<KernelLaunch> launch;  // none: the setup's reference
  std::string label;                   // for messages
};

// Keeps the memory system busy until the clocks settle (after the GPU sat idle).
struct WarmUpRequest {
  static constexpr const char* kOp = "warm_up";
  using Reply = Done;
};

struct CopyBandwidthRequest {
  static constexpr const char* kOp = "copy_bandwidth";
  using Reply = CopyBandwidthReply;
  std::size_t bytes = 0;  // device to device
};

// Loads, checks and times one candidate.
struct MeasureRequest {
  static constexpr const char* kOp = "measure";
  using Reply = MeasureReply;
  KernelLaunch launch;
  double best_ms = 0;           // the best median so far (0: none): a far slower candidate gets few samples
  bool estimate_only = false;   // one timed launch: the first pass of a two-pass sweep
  std::string reference_group;  // the reference (ReferenceRequest::group) its output is checked against
};

// Times several candidates again in turns (A B C A B C ...).
struct InterleaveRequest {
  static constexpr const char* kOp = "interleave";
  using Reply = InterleaveReply;
  std::vector<KernelLaunch> launches;
  int rounds = 0;
};

// A pipeline candidate's copy in, kernel and copy out, each alone on the whole problem: the bound its
// overlap approaches. Explicit copies only (pageable or pinned).
struct PipelineStagesRequest {
  static constexpr const char* kOp = "pipeline_stages";
  using Reply = StageTimes;
  KernelLaunch launch;
};

// Starts building CUPTI's configuration in the background while the sweep times its candidates
// (host work only: nothing is enabled on the GPU until the first profile).
struct PrepareProfilerRequest {
  static constexpr const char* kOp = "prepare_profiler";
  using Reply = Done;
};

struct ProfileCandidate {
  KernelLaunch launch;
  bool counters = true;
  bool energy = false;
  double launch_ms = 0;  // the candidate's median time, for the energy run's batches
};

// Hardware counters and energy of several candidates after their timing (never inside a sample):
// their counters in one CUPTI session, their energy in chained windows.
struct ProfileRequest {
  static constexpr const char* kOp = "profile";
  using Reply = ProfileReply;
  std::vector<ProfileCandidate> candidates;
};

using WorkerRequest = std::variant<SetupRequest, ReferenceRequest, WarmUpRequest, CopyBandwidthRequest, MeasureRequest,
                                   InterleaveRequest, PipelineStagesRequest, PrepareProfilerRequest, ProfileRequest>;
using WorkerReplyBody = std::variant<Done, CopyBandwidthReply, MeasureReply, InterleaveReply, StageTimes, ProfileReply>;

// A reply as the supervisor reads it: the body when the worker did the request, else the worker's
// error; and the seconds the worker spent on it, from reading the request to writing the reply
// (the sweep's GPU work, sweep_time.h).
template <class Body>
struct WorkerReply {
  std::optional<Body> body;
  std::string error;
  double worker_s = 0;
};

// The supervisor's side: a request as the JSON object WorkerProcess sends, and a reply's object
// read as the reply `Request` expects (ProtocolError when it is none).
nlohmann::json ToJson(const WorkerRequest& request);
template <class Body>
WorkerReply<Body> ReadReply(const nlohmann::json& reply);

// The worker's side: a request line read (ProtocolError when it is not one), and reply lines.
WorkerRequest ParseRequest(const std::string& line);
std::string ReplyLine(const WorkerReplyBody& body, double worker_s);
std::string FailureLine(const std::string& error, double worker_s);

}  // namespace tuner
