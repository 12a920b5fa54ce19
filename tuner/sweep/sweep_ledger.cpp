#include "sweep/sweep_ledger.h"

#include <algorithm>

namespace tuner {

void SweepLedger::Add(db::MeasurementRecord record, const Compiled& compiled) {
  Commit(record);
  failures_ += !IsOk(record.status);
  records_.push_back(std::move(record));
  compiled_.push_back(compiled);
}

void SweepLedger::Replace(std::size_t k, db::MeasurementRecord record) {
  Commit(record);
  records_.at(k) = std::move(record);
}

void SweepLedger::Commit(const db::MeasurementRecord& record) { store_.AddMeasurement(sweep_id_, record); }

std::optional<std::size_t> SweepLedger::Find(const std::string& params_json) const {
  const auto found = std::find_if(records_.begin(), records_.end(),
                                  [&](const db::MeasurementRecord& r) { return r.params_json == params_json; });
  if (found == records_.end()) return std::nullopt;
  return static_cast<std::size_t>(found - records_.begin());
}

}  // namespace tuner
