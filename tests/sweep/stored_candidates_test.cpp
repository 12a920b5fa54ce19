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

// A sweep timed in one mode resumes from that mode's times only; a failure holds in every mode.
TEST(StoredCandidates, ASweepResumesFromTheTimesOfItsModeAndEveryFailure) {
  db::MeasurementRecord isolated = Record(1, 2.0), graph = Record(2, 1.5), wrong = Record(3, 0, "wrong_result");
  graph.timing_mode = "graph";
  wrong.timing_mode = "graph";
  const std::vector<db::MeasurementRecord> stored = {isolated, graph, wrong};
  const std::vector<db::MeasurementRecord> for_isolated = OfTimingMode(stored, TimingMode::kIsolated);
  ASSERT_EQ(for_isolated.size(), 2u);
  EXPECT_EQ(for_isolated[0].params_json, isolated.params_json);
  EXPECT_EQ(for_isolated[1].params_json, wrong.params_json);
  const std::vector<db::MeasurementRecord> for_graph = OfTimingMode(stored, TimingMode::kGraph);
  ASSERT_EQ(for_graph.size(), 2u);
  EXPECT_EQ(for_graph[0].params_json, graph.params_json);
  EXPECT_TRUE(OfTimingMode(stored, TimingMode::kBackToBack).size() == 1u) << "only the failure";
  db::MeasurementRecord retimed = wrong;  // the same candidate measured isolated since: its own record wins
  retimed.timing_mode = "isolated";
  retimed.status = CandidateStatus::kOk;
  const std::vector<db::MeasurementRecord> both = OfTimingMode({wrong, retimed}, TimingMode::kIsolated);
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].status, CandidateStatus::kOk);
}

}  // namespace
}  // namespace tuner
