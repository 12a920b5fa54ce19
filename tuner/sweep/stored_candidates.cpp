#include "sweep/stored_candidates.h"

#include "search/retry_policy.h"

namespace tuner {

StoredCandidates ReadStoredCandidates(const std::vector<ParamValues>& all,
                                      const std::vector<db::MeasurementRecord>& model,
                                      const std::vector<db::MeasurementRecord>& here) {
  StoredCandidates stored;
  stored.history = StoredEvaluations(all, model);
  for (const db::MeasurementRecord& r : model)
    if (NeedsAnotherTry(r)) stored.kills[CandidateIdentity(r.params_json)] = r.worker_kills;
  // This card's own time of a candidate first: FastestLeaders keeps the first time it meets.
  for (const std::vector<db::MeasurementRecord>* rows : {&here, &model})
    for (const db::MeasurementRecord& r : *rows)
      if (IsOk(r.status)) stored.ok.push_back({CandidateIdentity(r.params_json), r.time_ms_median});
  for (const db::MeasurementRecord& r : here) stored.here.insert(CandidateIdentity(r.params_json));
  stored.model_leaders = ConfirmedLeaders(model, kLeaders);
  return stored;
}

std::vector<db::MeasurementRecord> OfTimingMode(std::vector<db::MeasurementRecord> records, TimingMode mode) {
  std::set<std::string> taken;  // params_json of the candidates with a record kept
  for (const db::MeasurementRecord& record : records)
    if (record.timing_mode == ToText(mode)) taken.insert(record.params_json);
  std::vector<db::MeasurementRecord> kept;
  for (db::MeasurementRecord& record : records) {
    const bool own = record.timing_mode == ToText(mode);
    if (own || (!IsOk(record.status) && taken.insert(record.params_json).second)) kept.push_back(std::move(record));
  }
  return kept;
}

}  // namespace tuner
