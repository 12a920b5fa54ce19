// The ledger of one sweep: what this run measured, in order, committed to the store as it comes.
#include "sweep/sweep_ledger.h"

#include <gtest/gtest.h>

#include "db_test_util.h"

namespace tuner {
namespace {

using db::testing::SampleGpu;
using db::testing::SampleMeasurement;
using db::testing::SampleSweep;

struct Ledger {
  Ledger() : store(db::Store::Open(dir.File("t.db"), db::OpenMode::kReadWrite)) {
    gpu_id = store.EnsureGpu(SampleGpu());
    template_id = store.EnsureTemplate({"transpose", "hash", ""});
    ledger = std::make_unique<SweepLedger>(store, store.StartSweep(gpu_id, template_id, SampleSweep()));
  }
  std::size_t Stored() { return store.Measurements(gpu_id, template_id, SampleSweep().size_key).size(); }
  db::testing::TempDir dir;
  db::Store store;
  std::int64_t gpu_id = 0, template_id = 0;
  std::unique_ptr<SweepLedger> ledger;
};

Compiled CompiledWith(long long tile) { return Compiled{{{"TILE", tile}}, {}, {}, {}}; }

TEST(SweepLedger, EveryEntryIsStoredAtOnceAndKeptWithItsCompiledCandidate) {
  Ledger l;
  l.ledger->Add(SampleMeasurement(16, 2.0), CompiledWith(16));
  l.ledger->Add(SampleMeasurement(32, 0, "wrong_result"), CompiledWith(32));
  EXPECT_EQ(l.Stored(), 2u);
  ASSERT_EQ(l.ledger->records().size(), 2u);
  EXPECT_EQ(l.ledger->compiled(1).params, CompiledWith(32).params);
  EXPECT_EQ(l.ledger->failures(), 1u);
  EXPECT_EQ(l.ledger->Find(SampleMeasurement(32, 0).params_json), 1u);
  EXPECT_FALSE(l.ledger->Find(SampleMeasurement(64, 0).params_json).has_value());
}

TEST(SweepLedger, ACandidateTimedAgainReplacesItsEntryAndAKillIsStoredOnly) {
  Ledger l;
  l.ledger->Add(SampleMeasurement(16, 2.0), CompiledWith(16));
  l.ledger->Replace(0, SampleMeasurement(16, 1.5));
  l.ledger->Commit(SampleMeasurement(32, 0, "fault"));
  ASSERT_EQ(l.ledger->records().size(), 1u);
  EXPECT_EQ(l.ledger->records()[0].time_ms_median, 1.5);
  EXPECT_EQ(l.ledger->failures(), 0u);
  const auto stored = l.store.Measurements(l.gpu_id, l.template_id, SampleSweep().size_key);
  EXPECT_EQ(stored.size(), 2u);  // the candidate's newest record, and the kill
}

}  // namespace
}  // namespace tuner
