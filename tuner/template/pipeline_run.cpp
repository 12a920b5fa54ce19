#include "template/pipeline_run.h"

namespace tuner {

namespace {

using nlohmann::json;

json ToJson(const ChunkLaunch& launch) {
  return {{"grid", launch.geometry.grid}, {"block", launch.geometry.block},
          {"shared_bytes", launch.geometry.shared_bytes}, {"scalars", launch.scalars}};
}

ChunkLaunch ChunkFromJson(const json& j) {
  ChunkLaunch launch;
  launch.geometry.grid = j.at("grid");
  launch.geometry.block = j.at("block");
  launch.geometry.shared_bytes = j.at("shared_bytes");
  launch.scalars = j.at("scalars").get<std::vector<double>>();
  return launch;
}

}  // namespace

std::string ToString(HostMemory memory) {
  switch (memory) {
    case HostMemory::kPageable: return "pageable";
    case HostMemory::kPinned: return "pinned";
    case HostMemory::kManaged: return "managed";
    case HostMemory::kManagedPrefetch: return "managed_prefetch";
  }
  return "?";
}

std::string ToString(IssueOrder order) { return order == IssueOrder::kDepthFirst ? "depth_first" : "breadth_first"; }

bool IsManaged(HostMemory memory) { return memory == HostMemory::kManaged || memory == HostMemory::kManagedPrefetch; }

std::string PipelineRun::Describe() const {
  return std::to_string(streams) + (streams == 1 ? " stream, " : " streams, ") + std::to_string(Chunks()) +
         (Chunks() == 1 ? " chunk of " : " chunks of ") + std::to_string(chunk_items) + ", " + ToString(memory) + ", " +
         ToString(order);
}

json ToJson(const PipelineRun& run) {
  if (!run.enabled) return nullptr;
  json chunked = json::array();
  for (const ChunkedBuffer& b : run.chunked) chunked.push_back({{"name", b.name}, {"per_item", b.per_item}});
  return {{"streams", run.streams}, {"items", run.items}, {"chunk_items", run.chunk_items},
          {"memory", static_cast<int>(run.memory)}, {"order", static_cast<int>(run.order)},
          {"chunked", chunked}, {"chunk", ToJson(run.chunk)}, {"tail", ToJson(run.tail)}};
}

PipelineRun PipelineFromJson(const json& j) {
  PipelineRun run;
  if (!j.is_object()) return run;
  run.enabled = true;
  run.streams = j.at("streams");
  run.items = j.at("items");
  run.chunk_items = j.at("chunk_items");
  run.memory = static_cast<HostMemory>(j.at("memory").get<int>());
  run.order = static_cast<IssueOrder>(j.at("order").get<int>());
  for (const json& b : j.at("chunked")) run.chunked.push_back({b.at("name"), b.at("per_item")});
  run.chunk = ChunkFromJson(j.at("chunk"));
  run.tail = ChunkFromJson(j.at("tail"));
  return run;
}

}  // namespace tuner
