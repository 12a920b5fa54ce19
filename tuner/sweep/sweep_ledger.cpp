#include "sweep/sweep_ledger.h"

#include <algorithm>

namespace tuner {

void SweepLedger::Add(db::MeasurementRecord record, const Compiled& compiled) {
  record.toolchain = toolchain_;
  Commit(record);
  failures_ += !IsOk(record.status);
  records_.push_back(std::move(record));
  compiled_.push_back(compiled);
}

void SweepLedger::Replace(std::size_t k, db::MeasurementRecord record) {
  record.toolchain = toolchain_;
  Commit(record);
  records_.at(k) = std::move(record);
}

void SweepLedger::Commit(const db::MeasurementRecord& record) {
  // A tie stood for the times it was decided on: this run's leaders decide again (sweep.cpp).
  if (!tie_cleared_) store_.ClearTie(sweep_id_, record.timing_mode);
  tie_cleared_ = true;
  db::MeasurementRecord stamped = record;
  stamped.toolchain = toolchain_;
  store_.AddMeasurement(sweep_id_, stamped);
}

std::optional<std::size_t> SweepLedger::Find(const std::string& params_json) const {
  const auto found = std::find_if(records_.begin(), records_.end(),
                                  [&](const db::MeasurementRecord& r) { return r.params_json == params_json; });
  if (found == records_.end()) return std::nullopt;
  return static_cast<std::size_t>(found - records_.begin());
}

}  // namespace tuner
