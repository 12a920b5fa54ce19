// The tie rule (db/query/tie_rule.h) on synthetic leaders: within their noise the winner is chosen
// by fewer registers, then less shared memory, then the template's order; leaders told apart by more
// than their noise, or with too few samples to tell, are no tie; a stored tie reads back as decided,
// and every ranking (db/query/best.h) puts its chosen member first.
#include "db/query/tie_rule.h"

#include <gtest/gtest.h>

#include "db/query/best.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

// A leader: TILE `tile`, median `time_ms` with a spread of 2% (IQR 0.02 ms at 1 ms), 20 samples.
TieCandidate Leader(int tile, double time_ms, int regs, std::int64_t smem_bytes, std::size_t order) {
  MeasurementRecord r = testing::SampleMeasurement(tile, time_ms);
  r.time_ms_spread = 0.02;
  r.regs_per_thread = regs;
  r.smem_bytes = smem_bytes;
  return {r, order};
}

int ChosenTile(const Tie& tie) { return std::stoi(tie.members[0].params_json.substr(8)); }

TEST(TieRule, WithinNoiseFewerRegistersWins) {
  // 1.00 ms, 1.01 ms and 1.02 ms: each within 0.04 ms of the fastest.
  const auto tie = DecideTie({Leader(16, 1.00, 40, 0, 0), Leader(32, 1.01, 32, 8192, 1), Leader(64, 1.02, 36, 0, 2)});
  ASSERT_TRUE(tie);
  EXPECT_EQ(tie->members.size(), 3u);
  EXPECT_EQ(ChosenTile(*tie), 32);
  EXPECT_EQ(tie->chosen_by, TieBreak::kFewerRegisters);
  EXPECT_EQ(std::stoi(tie->members[1].params_json.substr(8)), 64);  // 36 registers, then 40
  EXPECT_DOUBLE_EQ(tie->time_ms, 1.00);
  EXPECT_NEAR(tie->noise_ms, 0.02 + 1.02 * 0.02, 1e-12);
}

TEST(TieRule, EqualRegistersLessSharedMemoryWins) {
  const auto tie = DecideTie({Leader(16, 1.00, 32, 8192, 0), Leader(32, 1.01, 32, 4096, 1)});
  ASSERT_TRUE(tie);
  EXPECT_EQ(ChosenTile(*tie), 32);
  EXPECT_EQ(tie->chosen_by, TieBreak::kLessSharedMemory);
}

TEST(TieRule, EqualResourcesTheTemplatesOrderWins) {
  const auto tie = DecideTie({Leader(16, 1.00, 32, 4096, 5), Leader(32, 1.01, 32, 4096, 2)});
  ASSERT_TRUE(tie);
  EXPECT_EQ(ChosenTile(*tie), 32);  // slower, but earlier in the template's order
  EXPECT_EQ(tie->chosen_by, TieBreak::kTemplateOrder);
}

TEST(TieRule, DistinguishableLeadersAreNoTie) {
  // 1.00 and 1.10 ms with IQRs of 0.02 and 0.022 ms: told apart.
  EXPECT_FALSE(DecideTie({Leader(16, 1.00, 64, 0, 1), Leader(32, 1.10, 16, 0, 0)}));
  // Only the leaders within the noise of the fastest make the tie: the third is told apart.
  const auto tie = DecideTie({Leader(16, 1.00, 64, 0, 1), Leader(32, 1.01, 40, 0, 2), Leader(64, 1.20, 16, 0, 0)});
  ASSERT_TRUE(tie);
  EXPECT_EQ(tie->members.size(), 2u);
  EXPECT_EQ(ChosenTile(*tie), 32);
}

// In the graph and back_to_back modes a sample is a batch's mean, so the IQRs are tiny (0.1% here),
// while fresh processes differ by a few percent: the reproducibility floor ties what the IQRs alone
// would tell apart by chance.
TEST(TieRule, TinyInterquartileRangesTieWithinTheReproducibilityFloor) {
  TieCandidate fastest = Leader(16, 1.00, 40, 0, 0), close = Leader(32, 1.01, 32, 0, 1), far = Leader(64, 1.05, 16, 0, 2);
  for (TieCandidate* c : {&fastest, &close, &far}) c->record.time_ms_spread = 0.001;
  EXPECT_TRUE(WithinNoise(fastest.record, close.record)) << "1% apart";
  EXPECT_FALSE(WithinNoise(fastest.record, far.record)) << "5% apart";
  EXPECT_NEAR(NoiseMs(fastest.record, close.record), kReproducibleFraction * 1.00, 1e-12);  // of the faster
  const auto tie = DecideTie({fastest, close, far});
  ASSERT_TRUE(tie);
  EXPECT_EQ(tie->members.size(), 2u);
  EXPECT_EQ(ChosenTile(*tie), 32);
  EXPECT_NEAR(tie->noise_ms, kReproducibleFraction * 1.00, 1e-12);
  EXPECT_FALSE(DecideTie({fastest, far})) << "5% apart: told apart";
}

TEST(TieRule, WideInterquartileRangesOutgrowTheFloor) {
  // IQRs of 3% each: 6% together, wider than the floor.
  TieCandidate a = Leader(16, 1.00, 40, 0, 0), b = Leader(32, 1.05, 32, 0, 1);
  a.record.time_ms_spread = b.record.time_ms_spread = 0.03;
  EXPECT_NEAR(NoiseMs(a.record, b.record), 0.03 + 1.05 * 0.03, 1e-12);
  EXPECT_TRUE(WithinNoise(a.record, b.record));
}

TEST(TieRule, TooFewSamplesOrFailedLeadersMakeNoTie) {
  TieCandidate few = Leader(16, 1.00, 64, 0, 0);
  few.record.samples = kMinSamplesToCompare - 1;
  EXPECT_FALSE(DecideTie({few, Leader(32, 1.00, 16, 0, 1)}));
  TieCandidate wrong = Leader(16, 1.00, 16, 0, 0);
  wrong.record.status = CandidateStatus::kWrongResult;
  EXPECT_FALSE(DecideTie({wrong, Leader(32, 1.00, 64, 0, 1)}));
  EXPECT_FALSE(DecideTie({Leader(32, 1.00, 64, 0, 1)}));
}

TEST(TieRule, TheOrderOfTheLeadersGivenDoesNotMatter) {
  const TieCandidate a = Leader(16, 1.00, 40, 0, 0), b = Leader(32, 1.01, 32, 0, 1), c = Leader(64, 1.02, 32, 0, 2);
  for (const auto& leaders : {std::vector<TieCandidate>{a, b, c}, {c, b, a}, {b, a, c}}) {
    const auto tie = DecideTie(leaders);
    ASSERT_TRUE(tie);
    EXPECT_EQ(ChosenTile(*tie), 32);
    EXPECT_EQ(tie->chosen_by, TieBreak::kTemplateOrder);  // b and c: 32 registers, no shared memory
  }
}

TEST(TieRule, AStampedTieReadsBackAndItsChosenMemberRanksFirst) {
  const auto tie = DecideTie({Leader(16, 1.00, 40, 0, 0), Leader(32, 1.01, 32, 0, 1)});
  ASSERT_TRUE(tie);
  std::vector<MeasurementRecord> stored = Stamped(*tie);
  stored[0].id = 9;  // the chosen one was stored later: the tie still puts it first
  stored[1].id = 3;
  EXPECT_EQ(stored[0].tie_rank, 1);
  EXPECT_DOUBLE_EQ(stored[0].tie_ms, 1.00);
  EXPECT_TRUE(FasterRecord(stored[0], stored[1]));
  EXPECT_FALSE(FasterRecord(stored[1], stored[0]));
  MeasurementRecord slower = testing::SampleMeasurement(8, 1.005);  // no member: after the tie's members
  slower.id = 1;
  EXPECT_TRUE(FasterRecord(stored[1], slower));
  const auto read = StoredTie({slower, stored[1], stored[0]});
  ASSERT_TRUE(read);
  EXPECT_EQ(ChosenTile(*read), 32);
  EXPECT_EQ(read->chosen_by, TieBreak::kFewerRegisters);
  EXPECT_DOUBLE_EQ(read->noise_ms, tie->noise_ms);
  EXPECT_FALSE(StoredTie({slower}));
}

}  // namespace
}  // namespace tuner::db
