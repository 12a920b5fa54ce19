// What one sweep measured: every record of this run in order, each with its compiled candidate
// (for timing it again), committed to the store as it is entered. Its first commit clears the tie
// stored before (db/query/tie_rule.h): the sweep decides a new one when its leaders are timed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/store.h"
#include "sweep/candidate_record.h"

namespace tuner {

class SweepLedger {
 public:
  // `toolchain` (db/query/toolchain.h) is stamped on every record it enters.
  SweepLedger(db::Store& store, std::int64_t sweep_id, std::string toolchain = "")
      : store_(store), sweep_id_(sweep_id), toolchain_(std::move(toolchain)) {}

  // A candidate measured for the first time by this run.
  void Add(db::MeasurementRecord record, const Compiled& compiled);
  // Entry `k` timed again: its new record replaces the old.
  void Replace(std::size_t k, db::MeasurementRecord record);
  // Stored only: a kill before the retry, or counters added to a record.
  void Commit(const db::MeasurementRecord& record);

  const std::vector<db::MeasurementRecord>& records() const { return records_; }
  const Compiled& compiled(std::size_t k) const { return compiled_.at(k); }
  std::size_t failures() const { return failures_; }
  // The entry of the candidate with these parameters, if this run measured it.
  std::optional<std::size_t> Find(const std::string& params_json) const;

 private:
  db::Store& store_;
  std::int64_t sweep_id_;
  std::string toolchain_;
  std::vector<db::MeasurementRecord> records_;
  std::vector<Compiled> compiled_;  // parallel to records_
  std::size_t failures_ = 0;        // entered records that are not ok
  bool tie_cleared_ = false;        // the stored tie of this GPU, version and size, at the first commit
};

}  // namespace tuner
