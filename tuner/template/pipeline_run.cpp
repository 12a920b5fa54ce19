#include "template/pipeline_run.h"

namespace tuner {

std::string ToString(HostMemory memory) {
  switch (memory) {
    case HostMemory::kPageable:
      return "pageable";
    case HostMemory::kPinned:
      return "pinned";
    case HostMemory::kManaged:
      return "managed";
    case HostMemory::kManagedPrefetch:
      return "managed_prefetch";
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

}  // namespace tuner
