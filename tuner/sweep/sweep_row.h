// A sweep's row in the store from its start to its end. A sweep that ends by an exception (every
// candidate failing to compile alike, a reference that does not compile, a worker that cannot
// start) is marked "failed" with its end time, not left "running" as if still under way; the
// exception itself, with the reason, goes on to the user.
#pragma once

#include <cstdint>
#include <string>

#include "db/query/store.h"

namespace tuner {

class SweepRow {
 public:
  SweepRow(db::Store& store, std::int64_t sweep_id) : store_(store), sweep_id_(sweep_id) {}
  SweepRow(const SweepRow&) = delete;
  SweepRow& operator=(const SweepRow&) = delete;
  // Not finished (an exception ended the sweep): marks the row "failed". Never throws.
  ~SweepRow();

  // The sweep ended as it should: "done" or "interrupted".
  void Finish(const std::string& status);

 private:
  db::Store& store_;
  std::int64_t sweep_id_;
  bool finished_ = false;
};

}  // namespace tuner
