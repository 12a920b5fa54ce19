#include "measure/worker_protocol.h"

#include <nlohmann/json.hpp>

namespace tuner {

namespace {

using nlohmann::json;

// Each message's fields: Write gives its JSON object, Read fills it from one (throwing
// nlohmann::json's exceptions for a missing field or a wrong type).

template <class T>
json WriteAll(const std::vector<T>& values);
template <class T>
void ReadAll(const json& j, std::vector<T>& values);

json Write(const LaunchArg& a) {
  return {{"buffer", a.buffer}, {"type", static_cast<int>(a.type)}, {"value", a.value}, {"name", a.name}};
}
void Read(const json& j, LaunchArg& a) {
  a.buffer = j.at("buffer");
  a.type = static_cast<ScalarType>(j.at("type").get<int>());
  a.value = j.at("value");
  a.name = j.at("name");
}

json Write(const SymbolSpec& s) { return {{"name", s.name}, {"from", s.from}}; }
void Read(const json& j, SymbolSpec& s) {
  s.name = j.at("name");
  s.from = j.at("from");
}

json Write(const BufferDecl& b) {
  return {{"name", b.name},         {"type", static_cast<int>(b.type)},
          {"count", b.count},       {"init", static_cast<int>(b.init)},
          {"output", b.output},     {"file", b.file},
          {"expected", b.expected}, {"accumulate", b.accumulate}};
}
void Read(const json& j, BufferDecl& b) {
  b.name = j.at("name");
  b.type = static_cast<ScalarType>(j.at("type").get<int>());
  b.count = j.at("count");
  b.init = static_cast<BufferInit>(j.at("init").get<int>());
  b.output = j.at("output");
  b.file = j.at("file");
  b.expected = j.at("expected");
  b.accumulate = j.at("accumulate");
}

// A geometry is written as the store keeps it (template/launch_types.h: to_json, from_json).
json Write(const ChunkLaunch& c) { return {{"geometry", c.geometry}, {"scalars", c.scalars}}; }
void Read(const json& j, ChunkLaunch& c) {
  c.geometry = j.at("geometry").get<LaunchGeometry>();
  c.scalars = j.at("scalars").get<std::vector<double>>();
}

json Write(const ChunkedBuffer& b) { return {{"name", b.name}, {"per_item", b.per_item}}; }
void Read(const json& j, ChunkedBuffer& b) {
  b.name = j.at("name");
  b.per_item = j.at("per_item");
}

// A run that is not enabled is null: a launch of the whole problem.
json Write(const PipelineRun& r) {
  if (!r.enabled) return nullptr;
  return {{"streams", r.streams},
          {"items", r.items},
          {"chunk_items", r.chunk_items},
          {"memory", static_cast<int>(r.memory)},
          {"order", static_cast<int>(r.order)},
          {"chunked", WriteAll(r.chunked)},
          {"chunk", Write(r.chunk)},
          {"tail", Write(r.tail)}};
}
void Read(const json& j, PipelineRun& r) {
  r = PipelineRun{};
  if (j.is_null()) return;
  r.enabled = true;
  r.streams = j.at("streams");
  r.items = j.at("items");
  r.chunk_items = j.at("chunk_items");
  r.memory = static_cast<HostMemory>(j.at("memory").get<int>());
  r.order = static_cast<IssueOrder>(j.at("order").get<int>());
  ReadAll(j.at("chunked"), r.chunked);
  Read(j.at("chunk"), r.chunk);
  Read(j.at("tail"), r.tail);
}

json Write(const KernelLaunch& l) {
  return {{"cubin_path", l.cubin_path},
          {"kernel", l.kernel},
          {"geometry", l.geometry},
          {"args", WriteAll(l.args)},
          {"pipeline", Write(l.pipeline)}};
}
void Read(const json& j, KernelLaunch& l) {
  l.cubin_path = j.at("cubin_path");
  l.kernel = j.at("kernel");
  l.geometry = j.at("geometry").get<LaunchGeometry>();
  ReadAll(j.at("args"), l.args);
  Read(j.at("pipeline"), l.pipeline);
}

json Write(const SampleStats& s) {
  return {{"median", s.median}, {"min", s.min},     {"max", s.max},
          {"spread", s.spread}, {"count", s.count}, {"launches_per_sample", s.launches_per_sample}};
}
void Read(const json& j, SampleStats& s) {
  s.median = j.at("median");
  s.min = j.at("min");
  s.max = j.at("max");
  s.spread = j.at("spread");
  s.count = j.at("count");
  s.launches_per_sample = j.value("launches_per_sample", 1);  // a reply that does not say timed one launch a sample
}

json Write(const ThrottleCount& t) {
  return {{"reads", t.reads}, {"discarded", t.discarded}, {"unavailable", t.unavailable}};
}
void Read(const json& j, ThrottleCount& t) {
  t.reads = j.at("reads");
  t.discarded = j.at("discarded");
  t.unavailable = j.at("unavailable");
}

}  // namespace

void AddThrottle(ThrottleCount& total, const ThrottleCount& more) {
  total.reads += more.reads;
  total.discarded += more.discarded;
  if (total.unavailable.empty()) total.unavailable = more.unavailable;
}

namespace {

// Requests.

json Write(const SetupRequest& r) {
  return {{"gpu", r.gpu},
          {"uuid", r.uuid},
          {"seed", r.seed},
          {"buffers", WriteAll(r.buffers)},
          {"symbols", WriteAll(r.symbols)},
          {"reference", r.reference ? Write(*r.reference) : json()},
          {"atol", r.atol},
          {"rtol", r.rtol},
          {"timing", ToText(r.timing)},
          {"batch_launches", r.batch_launches},
          {"reference_label", r.reference_label},
          {"reference_group", r.reference_group}};
}
void Read(const json& j, SetupRequest& r) {
  r.gpu = j.at("gpu");
  r.uuid = j.at("uuid");
  r.seed = j.at("seed");
  ReadAll(j.at("buffers"), r.buffers);
  ReadAll(j.at("symbols"), r.symbols);
  r.reference.reset();
  if (!j.at("reference").is_null()) Read(j.at("reference"), r.reference.emplace());
  r.atol = j.at("atol");
  r.rtol = j.at("rtol");
  const std::optional<TimingMode> timing = TimingModeFromText(j.at("timing"));
  if (!timing) throw ProtocolError("unknown timing mode " + j.at("timing").dump());
  r.timing = *timing;
  r.batch_launches = j.at("batch_launches");
  r.reference_label = j.at("reference_label");
  r.reference_group = j.at("reference_group");
}

json Write(const ReferenceRequest& r) {
  return {{"group", r.group}, {"launch", r.launch ? Write(*r.launch) : json()}, {"label", r.label}};
}
void Read(const json& j, ReferenceRequest& r) {
  r.group = j.at("group");
  r.launch.reset();
  if (!j.at("launch").is_null()) Read(j.at("launch"), r.launch.emplace());
  r.label = j.at("label");
}

json Write(const WarmUpRequest&) { return json::object(); }
void Read(const json&, WarmUpRequest&) {}

json Write(const CopyBandwidthRequest& r) { return {{"bytes", r.bytes}}; }
void Read(const json& j, CopyBandwidthRequest& r) { r.bytes = j.at("bytes"); }

json Write(const MeasureRequest& r) {
  return {{"launch", Write(r.launch)},
          {"best_ms", r.best_ms},
          {"estimate_only", r.estimate_only},
          {"reference_group", r.reference_group}};
}
void Read(const json& j, MeasureRequest& r) {
  Read(j.at("launch"), r.launch);
  r.best_ms = j.at("best_ms");
  r.estimate_only = j.at("estimate_only");
  r.reference_group = j.at("reference_group");
}

json Write(const InterleaveRequest& r) { return {{"launches", WriteAll(r.launches)}, {"rounds", r.rounds}}; }
void Read(const json& j, InterleaveRequest& r) {
  ReadAll(j.at("launches"), r.launches);
  r.rounds = j.at("rounds");
}

json Write(const PipelineStagesRequest& r) { return {{"launch", Write(r.launch)}}; }
void Read(const json& j, PipelineStagesRequest& r) { Read(j.at("launch"), r.launch); }

json Write(const PrepareProfilerRequest&) { return json::object(); }
void Read(const json&, PrepareProfilerRequest&) {}

json Write(const ProfileCandidate& c) {
  return {{"launch", Write(c.launch)}, {"counters", c.counters}, {"energy", c.energy}, {"launch_ms", c.launch_ms}};
}
void Read(const json& j, ProfileCandidate& c) {
  Read(j.at("launch"), c.launch);
  c.counters = j.at("counters");
  c.energy = j.at("energy");
  c.launch_ms = j.at("launch_ms");
}

json Write(const ProfileRequest& r) { return {{"candidates", WriteAll(r.candidates)}}; }
void Read(const json& j, ProfileRequest& r) { ReadAll(j.at("candidates"), r.candidates); }

// Reply bodies.

json Write(const Done&) { return json::object(); }
void Read(const json&, Done&) {}

json Write(const CopyBandwidthReply& r) { return {{"gbps", r.gbps}}; }
void Read(const json& j, CopyBandwidthReply& r) { r.gbps = j.at("gbps"); }

json Write(const MeasureReply& r) {
  return {{"status", ToText(r.status)},           {"reason", r.reason},
          {"regs_per_thread", r.regs_per_thread}, {"static_smem_bytes", r.static_smem_bytes},
          {"time_ms", Write(r.time_ms)},          {"throttle", Write(r.throttle)}};
}
void Read(const json& j, MeasureReply& r) {
  r.status = CandidateStatusFromText(j.at("status"));
  r.reason = j.at("reason");
  r.regs_per_thread = j.at("regs_per_thread");
  r.static_smem_bytes = j.at("static_smem_bytes");
  Read(j.at("time_ms"), r.time_ms);
  Read(j.at("throttle"), r.throttle);
}

json Write(const InterleaveReply& r) { return {{"time_ms", WriteAll(r.time_ms)}, {"throttle", Write(r.throttle)}}; }
void Read(const json& j, InterleaveReply& r) {
  ReadAll(j.at("time_ms"), r.time_ms);
  Read(j.at("throttle"), r.throttle);
}

json Write(const StageTimes& t) { return {{"h2d_ms", t.h2d_ms}, {"kernel_ms", t.kernel_ms}, {"d2h_ms", t.d2h_ms}}; }
void Read(const json& j, StageTimes& t) {
  t.h2d_ms = j.at("h2d_ms");
  t.kernel_ms = j.at("kernel_ms");
  t.d2h_ms = j.at("d2h_ms");
}

json Write(const EnergyUse& e) {
  return {{"joules_per_launch", e.joules_per_launch}, {"power_w", e.power_w}, {"launch_ms", e.launch_ms}};
}
void Read(const json& j, EnergyUse& e) {
  e.joules_per_launch = j.at("joules_per_launch");
  e.power_w = j.at("power_w");
  e.launch_ms = j.at("launch_ms");
}

json Write(const ProfileResult& r) {
  return {{"counters_json", r.counters_json},
          {"energy", r.energy ? Write(*r.energy) : json()},
          {"counters_unavailable", r.counters_unavailable},
          {"energy_unavailable", r.energy_unavailable}};
}
void Read(const json& j, ProfileResult& r) {
  r.counters_json = j.at("counters_json");
  r.energy.reset();
  if (!j.at("energy").is_null()) Read(j.at("energy"), r.energy.emplace());
  r.counters_unavailable = j.at("counters_unavailable");
  r.energy_unavailable = j.at("energy_unavailable");
}

json Write(const ProfileReply& r) { return {{"results", WriteAll(r.results)}, {"timing_ms", r.timing_ms}}; }
void Read(const json& j, ProfileReply& r) {
  ReadAll(j.at("results"), r.results);
  r.timing_ms = j.at("timing_ms").get<std::map<std::string, double>>();
}

// Defined after every Write and Read, which they call.
template <class T>
json WriteAll(const std::vector<T>& values) {
  json out = json::array();
  for (const T& value : values) out.push_back(Write(value));
  return out;
}

template <class T>
void ReadAll(const json& j, std::vector<T>& values) {
  values.assign(j.size(), T{});
  for (std::size_t i = 0; i < values.size(); ++i) Read(j.at(i), values[i]);
}

constexpr const char* kOk = "ok";
constexpr const char* kError = "error";
constexpr const char* kOp = "op";
constexpr const char* kWorkerSeconds = "worker_s";

// The request of kind `op`: the first alternative of WorkerRequest from index I on with that kOp.
template <std::size_t I = 0>
WorkerRequest RequestOf(const std::string& op, const json& j) {
  if constexpr (I == std::variant_size_v<WorkerRequest>) {
    throw ProtocolError("unknown request '" + op + "'");
  } else {
    using Request = std::variant_alternative_t<I, WorkerRequest>;
    if (op != Request::kOp) return RequestOf<I + 1>(op, j);
    Request request;
    Read(j, request);
    return request;
  }
}

}  // namespace

json ToJson(const WorkerRequest& request) {
  return std::visit(
      [](const auto& r) {
        json j = Write(r);
        j[kOp] = r.kOp;
        return j;
      },
      request);
}

WorkerRequest ParseRequest(const std::string& line) {
  try {
    const json j = json::parse(line);
    return RequestOf(j.at(kOp).get<std::string>(), j);
  } catch (const json::exception& e) {
    throw ProtocolError(std::string("a malformed request: ") + e.what());
  }
}

std::string ReplyLine(const WorkerReplyBody& body, double worker_s) {
  json j = std::visit([](const auto& b) { return Write(b); }, body);
  j[kOk] = true;
  j[kWorkerSeconds] = worker_s;
  return j.dump();
}

std::string FailureLine(const std::string& error, double worker_s) {
  return json{{kOk, false}, {kError, error}, {kWorkerSeconds, worker_s}}.dump();
}

template <class Body>
WorkerReply<Body> ReadReply(const json& j) {
  try {
    WorkerReply<Body> reply;
    reply.worker_s = j.at(kWorkerSeconds);
    if (j.at(kOk).get<bool>())
      Read(j, reply.body.emplace());
    else
      reply.error = j.at(kError);
    return reply;
  } catch (const json::exception& e) {
    throw ProtocolError(std::string("a malformed reply of the GPU worker: ") + e.what());
  } catch (const std::invalid_argument& e) {  // a field's value, such as a status, that is none
    throw ProtocolError(std::string("a malformed reply of the GPU worker: ") + e.what());
  }
}

template WorkerReply<Done> ReadReply<Done>(const json&);
template WorkerReply<CopyBandwidthReply> ReadReply<CopyBandwidthReply>(const json&);
template WorkerReply<MeasureReply> ReadReply<MeasureReply>(const json&);
template WorkerReply<InterleaveReply> ReadReply<InterleaveReply>(const json&);
template WorkerReply<StageTimes> ReadReply<StageTimes>(const json&);
template WorkerReply<ProfileReply> ReadReply<ProfileReply>(const json&);

}  // namespace tuner
