// What the store already holds for a sweep's GPU model, template version and size, as a resumed
// sweep uses it. What is stored for the model is not measured again, except candidates that killed
// their worker only once: cards of one model share their candidates (--gpus, or --shard and a
// merge).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/timing_mode.h"
#include "db/query/records.h"
#include "search/search_strategy.h"
#include "sweep/leaders.h"
#include "template/search_space.h"

namespace tuner {

struct StoredCandidates {
  std::vector<Evaluation> history;    // the candidates measured already, for the strategy
  std::map<std::string, int> kills;   // params_json -> worker kills of the stored candidates to try again
  std::vector<Leader> ok;             // every stored ok time, this card's first (the leaders of a resumed run)
  std::set<std::string> here;         // params_json of the candidates stored for this very card
  std::vector<Leader> model_leaders;  // the leaders the model's cards confirmed
};

// The stored records a sweep timed in `mode` resumes from: the records of that mode, and of a candidate
// that has none, a failure of another mode (a kernel that fails its check or faults does so in every
// mode; one record per candidate, the first stored). A time of another mode is never compared with
// this mode's, so that candidate is measured again.
std::vector<db::MeasurementRecord> OfTimingMode(std::vector<db::MeasurementRecord> records, TimingMode mode);

// From the records of the model (every card) and of this card; `all`: every candidate.
StoredCandidates ReadStoredCandidates(const std::vector<ParamValues>& all,
                                      const std::vector<db::MeasurementRecord>& model,
                                      const std::vector<db::MeasurementRecord>& here);

}  // namespace tuner
