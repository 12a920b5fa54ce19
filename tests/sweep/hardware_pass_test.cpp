// The hardware pass through fake workers: a profile request that fails is said with its reason and
// the sweep goes on without the counters. No GPU.
#include "sweep/hardware_pass.h"

#include <gtest/gtest.h>

#include "db/objective.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "measuring_fixture.h"
#include "sweep/sweep_ledger.h"

namespace tuner {
namespace {

using testing::FakeWorker;
using testing::kDone;
using testing::kOkReply;
using testing::Measuring;

// The measured candidate in a sweep's ledger, and the pass that profiles it.
struct Profiling : Measuring {
  explicit Profiling(const FakeWorker& fake)
      : Measuring(fake),
        store(db::Store::Open(dir.File("t.db"), db::OpenMode::kReadWrite)),
        ledger(store, store.StartSweep(store.EnsureGpu(db::testing::SampleGpu()),
                                       store.EnsureTemplate({"small", "h1", ""}), db::testing::SampleSweep("1024"))),
        pass(ledger, worker, pipeline, measurer, stop, 3) {
    ledger.Add(measurer.Measure(compiled, false, 0).value(), compiled);
  }
  db::Store store;
  SweepLedger ledger;
  HardwarePass pass;
};

TEST(HardwarePass, AFailedProfileIsSaidWithItsReasonAndTheRecordKeepsNoCounters) {
  FakeWorker fake(kDone, kOkReply, R"({"ok":false,"error":"CUPTI gave up","worker_s":0.001})");
  Profiling p(fake);
  const std::string leader = p.ledger.records().at(0).params_json;
  ::testing::internal::CaptureStderr();
  const std::optional<HardwarePassCost> cost = p.pass.Run({leader}, CounterMode::kWinner, db::Objective::kTime);
  const std::string said = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(cost.has_value()) << "the leader was planned";
  EXPECT_EQ(cost->counters, 0);
  EXPECT_EQ(cost->energy, 0);
  EXPECT_NE(said.find("counters and energy of "), std::string::npos) << said;
  EXPECT_NE(said.find(" failed on GPU 3: CUPTI gave up"), std::string::npos) << said;
  EXPECT_TRUE(p.ledger.records().at(0).counters_json.empty());
  EXPECT_EQ(fake.Requests("profile"), 1) << "a single candidate is not tried again";
}

TEST(HardwarePass, AProfileReplyIsStoredWithTheRecord) {
  FakeWorker fake(
      kDone, kOkReply,
      R"({"ok":true,"worker_s":0.001,"timing_ms":{"counters":12.5},"results":[{"counters_json":)"
      R"("{\"dram_throughput_pct\":50}","energy":null,"counters_unavailable":"","energy_unavailable":""}]})");
  Profiling p(fake);
  const std::string leader = p.ledger.records().at(0).params_json;
  const std::optional<HardwarePassCost> cost = p.pass.Run({leader}, CounterMode::kWinner, db::Objective::kTime);
  ASSERT_TRUE(cost.has_value());
  EXPECT_EQ(cost->requests, 1);
  EXPECT_EQ(cost->counters, 1);
  EXPECT_EQ(cost->worker_ms.at("counters"), 12.5);
  // The timed median is stored beside the counters: the speed of light's shares are taken over it.
  EXPECT_EQ(p.ledger.records().at(0).counters_json, R"({"dram_throughput_pct":50,"timed_ms":2.0})");
}

}  // namespace
}  // namespace tuner
