// What a resumed sweep takes from the store: the candidates not measured again, the ones tried
// again after killing one worker, the stored times that may lead, and the model's confirmed leaders.
#include "sweep/stored_candidates.h"

#include <gtest/gtest.h>

#include "sweep/timing_plan.h"

namespace tuner {
namespace {

db::MeasurementRecord Record(long long t, double time_ms, const std::string& status = "ok", int kills = 0,
                             const std::string& reason = "") {
  db::MeasurementRecord r;
  r.params_json = "{ \"T\": " + std::to_string(t) + " }";  // as another tool may have spaced it
  r.time_ms_median = time_ms;
  r.status = CandidateStatusFromText(status);
  r.worker_kills = kills;
  r.reason = reason;
  return r;
}

TEST(StoredCandidates, AResumedSweepKnowsWhatIsStoredForItsModelAndItsCard) {
  const std::vector<ParamValues> all = {{{"T", 1}}, {{"T", 2}}, {{"T", 3}}, {{"T", 4}}};
  const std::vector<db::MeasurementRecord> here = {Record(1, 2.0)};
  const std::vector<db::MeasurementRecord> model = {Record(1, 1.9), Record(2, 1.0, "ok", 0, ConfirmedReason(10, 5)),
                                                    Record(3, 0, "fault", 1), Record(4, 0, "timeout", 2)};
  const StoredCandidates stored = ReadStoredCandidates(all, model, here);
  EXPECT_EQ(stored.history.size(), 3u);  // the fault with one kill is tried again
  ASSERT_EQ(stored.kills.size(), 1u);
  EXPECT_EQ(stored.kills.at(ParamsJson(all[2])), 1);
  ASSERT_EQ(stored.ok.size(), 3u);
  EXPECT_EQ(stored.ok[0].params_json, ParamsJson(all[0]));  // this card's own time first
  EXPECT_EQ(stored.ok[0].time_ms, 2.0);
  EXPECT_EQ(stored.here, std::set<std::string>{ParamsJson(all[0])});
  ASSERT_EQ(stored.model_leaders.size(), 1u);
  EXPECT_EQ(stored.model_leaders[0].params_json, ParamsJson(all[1]));
}

}  // namespace
}  // namespace tuner
