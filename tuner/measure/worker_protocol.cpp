#include "measure/worker_protocol.h"

namespace tuner {

namespace {

using nlohmann::json;

json ArgsToJson(const std::vector<LaunchArg>& args) {
  json out = json::array();
  for (const LaunchArg& a : args)
    out.push_back({{"buffer", a.buffer}, {"type", static_cast<int>(a.type)}, {"value", a.value}});
  return out;
}

}  // namespace

json ToJson(const KernelLaunch& launch) {
  json symbols = json::array();
  for (const SymbolSpec& s : launch.symbols) symbols.push_back({{"name", s.name}, {"from", s.from}});
  return {{"cubin_path", launch.cubin_path},
          {"kernel", launch.kernel},
          {"grid", launch.geometry.grid},
          {"block", launch.geometry.block},
          {"shared_bytes", launch.geometry.shared_bytes},
          {"args", ArgsToJson(launch.args)},
          {"symbols", symbols},
          {"pipeline", ToJson(launch.pipeline)}};
}

KernelLaunch LaunchFromJson(const json& j) {
  KernelLaunch launch;
  launch.cubin_path = j.at("cubin_path");
  launch.kernel = j.at("kernel");
  launch.geometry.grid = j.at("grid");
  launch.geometry.block = j.at("block");
  launch.geometry.shared_bytes = j.at("shared_bytes");
  for (const json& a : j.at("args"))
    launch.args.push_back({a.at("buffer"), static_cast<ScalarType>(a.at("type").get<int>()), a.at("value")});
  for (const json& s : j.at("symbols")) launch.symbols.push_back({s.at("name"), s.at("from")});
  launch.pipeline = PipelineFromJson(j.value("pipeline", json()));
  return launch;
}


json ToJson(const SetupRequest& r) {
  json buffers = json::array();
  for (const BufferDecl& b : r.buffers)
    buffers.push_back({{"name", b.name}, {"type", static_cast<int>(b.type)}, {"count", b.count},
                       {"init", static_cast<int>(b.init)}, {"output", b.output}, {"file", b.file},
                       {"expected", b.expected}});
  return {{"op", "setup"}, {"gpu", r.gpu}, {"seed", r.seed}, {"buffers", buffers},
          {"reference", ToJson(r.reference)}, {"atol", r.atol}, {"rtol", r.rtol}};
}

json ToJson(const MeasureRequest& r) {
  return {{"op", "measure"}, {"launch", ToJson(r.launch)}, {"time_cap_ms", r.time_cap_ms},
          {"min_samples", r.min_samples}, {"max_samples", r.max_samples}, {"target_spread", r.target_spread},
          {"best_ms", r.best_ms}, {"estimate_only", r.estimate_only}};
}

SetupRequest SetupFromJson(const json& j) {
  SetupRequest r;
  r.gpu = j.at("gpu");
  r.seed = j.at("seed");
  for (const json& b : j.at("buffers"))
    r.buffers.push_back({b.at("name"), static_cast<ScalarType>(b.at("type").get<int>()), b.at("count"),
                         static_cast<BufferInit>(b.at("init").get<int>()), b.at("output"), b.value("file", ""),
                         b.value("expected", "")});
  r.reference = LaunchFromJson(j.at("reference"));
  r.atol = j.at("atol");
  r.rtol = j.at("rtol");
  return r;
}

MeasureRequest MeasureFromJson(const json& j) {
  MeasureRequest r;
  r.launch = LaunchFromJson(j.at("launch"));
  r.time_cap_ms = j.at("time_cap_ms");
  r.min_samples = j.at("min_samples");
  r.max_samples = j.at("max_samples");
  r.target_spread = j.at("target_spread");
  r.best_ms = j.at("best_ms");
  r.estimate_only = j.value("estimate_only", false);
  return r;
}

}  // namespace tuner
