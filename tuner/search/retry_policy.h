// When a stored candidate is final. A fault or a timeout kills the GPU worker; such a candidate is
// measured again, with a new worker, until it has killed its worker twice, and only then is its
// record final (`tune --force` measures anything again). The sweep's measurer retries by this rule,
// and a resumed or replayed sweep counts as evaluated only the records it makes final.
#pragma once

#include "db/query/records.h"

namespace tuner {

inline constexpr int kMaxWorkerKills = 2;

// Whether `stored` must be measured again: it killed its worker, fewer than kMaxWorkerKills times.
inline bool NeedsAnotherTry(const db::MeasurementRecord& stored) {
  return KillsWorker(stored.status) && stored.worker_kills < kMaxWorkerKills;
}

}  // namespace tuner
