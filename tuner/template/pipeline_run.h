// One pipeline candidate as the worker runs it: how many streams, how large the chunks, which host
// memory, which issue order, and the kernel's launch for a chunk. Planned by the supervisor from
// the template's [pipeline] (pipeline_spec.h), so the worker evaluates no expression.
#pragma once

#include <string>
#include <vector>

#include "template/launch_types.h"

namespace tuner {

// Values of the `memory` expression of [pipeline]: where the host's buffers live.
enum class HostMemory { kPageable = 0, kPinned = 1, kManaged = 2, kManagedPrefetch = 3 };
// Values of `order`: per chunk copy in, kernel, copy out (depth-first), or every chunk's copy in,
// then every kernel, then every copy out (breadth-first).
enum class IssueOrder { kDepthFirst = 0, kBreadthFirst = 1 };

std::string ToString(HostMemory memory);  // "pageable", "pinned", "managed", "managed_prefetch"
std::string ToString(IssueOrder order);   // "depth_first", "breadth_first"
bool IsManaged(HostMemory memory);

struct ChunkedBuffer {
  std::string name;
  long long per_item = 1;  // elements of the buffer per element of the chunked size
};

// The kernel's launch for one chunk: the chunked size is the chunk's length there.
struct ChunkLaunch {
  LaunchGeometry geometry;
  std::vector<double> scalars;  // one per kernel argument, in order (0 for buffers)
};

struct PipelineRun {
  bool enabled = false;
  int streams = 1;
  long long items = 0;        // the chunked size's value
  long long chunk_items = 0;  // of it per chunk; the last chunk may be shorter
  HostMemory memory = HostMemory::kPageable;
  IssueOrder order = IssueOrder::kDepthFirst;
  std::vector<ChunkedBuffer> chunked;  // every other buffer moves whole
  ChunkLaunch chunk;                   // a full chunk
  ChunkLaunch tail;                    // the last chunk when it is shorter

  long long Chunks() const { return chunk_items > 0 ? (items + chunk_items - 1) / chunk_items : 0; }
  // "4 streams, 16 chunks of 1048576, pinned, depth_first"
  std::string Describe() const;
};

}  // namespace tuner
