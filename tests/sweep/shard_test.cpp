// --shard K/N: the text, shares that partition the space whatever the seed or the candidates'
// order, and N shard databases that, merged with `tuner db merge`, hold what one full sweep holds
// and give its best. No GPU: each "measurement" is a stored result of a fixed landscape, and each
// node stores what PlannedShare, the sweep's own choice of candidates, gives it.
#include "sweep/shard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "base/errors.h"
#include "cli_runner.h"
#include "common/content_hash.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "sweep/leader_summary.h"
#include "sweep/sweep.h"

namespace tuner {
namespace {

using db::testing::TempDir;

TEST(Shard, ParsesKOfN) {
  EXPECT_EQ(ParseShard("1/1").Text(), "1/1");
  const Shard shard = ParseShard("3/8");
  EXPECT_EQ(shard.number, 3u);
  EXPECT_EQ(shard.count, 8u);
}

TEST(Shard, RefusesWhatIsNotAShareNamingTheOption) {
  for (const std::string text :
       {"0/2", "3/2", "2", "1/0", "-1/2", "1/2/3", " 1/2", "01/2", "a/b", "", "1/9999999999"}) {
    try {
      ParseShard(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--shard '" + text + "': ", 0), 0u) << e.what();
    }
  }
}

// 7 x 6 x 5 = 210 combinations, 170 of them valid.
std::vector<ParamSpec> Params() {
  return {{"A", {1, 2, 3, 4, 5, 6, 7}, {}}, {"B", {8, 16, 32, 64, 128, 256}, {}}, {"C", {0, 1, 2, 3, 4}, {}}};
}

std::vector<ParamValues> Candidates() {
  TemplateSpec spec;
  spec.params = Params();
  spec.constraints = {"A * B <= 1024 && A != 6"};
  return EnumerateCandidates(spec, {});
}

std::set<std::string> Identities(const std::vector<ParamValues>& candidates, const std::vector<std::size_t>& indices) {
  std::set<std::string> identities;
  for (std::size_t i : indices) identities.insert(ParamsJson(candidates[i]));
  return identities;
}

std::vector<std::size_t> Members(const std::vector<bool>& owned) {
  std::vector<std::size_t> members;
  for (std::size_t c = 0; c < owned.size(); ++c)
    if (owned[c]) members.push_back(c);
  return members;
}

TEST(Shard, SharesAreDisjointCoverTheSpaceAndDifferByOneAtMost) {
  const std::vector<ParamValues> candidates = Candidates();
  ASSERT_EQ(candidates.size(), 170u);
  for (std::size_t n = 1; n <= 9; ++n) {
    std::vector<int> owners(candidates.size(), 0);
    std::size_t smallest = candidates.size(), largest = 0;
    for (std::size_t k = 1; k <= n; ++k) {
      const std::vector<std::size_t> members = Members(ShardMembers(candidates, {k, n}));
      for (std::size_t c : members) ++owners[c];
      smallest = std::min(smallest, members.size());
      largest = std::max(largest, members.size());
    }
    EXPECT_TRUE(std::all_of(owners.begin(), owners.end(), [](int o) { return o == 1; })) << n << " shards";
    EXPECT_LE(largest - smallest, 1u) << n << " shards";
  }
}

// ShareOf (explore --shard's compiles) keeps the members ShardMembers names, in the space's order.
TEST(Shard, ShareOfKeepsTheMembersInTheirOrder) {
  const std::vector<ParamValues> candidates = Candidates();
  const std::vector<std::size_t> members = Members(ShardMembers(candidates, {2, 3}));
  const std::vector<ParamValues> share = ShareOf(candidates, {2, 3});
  ASSERT_EQ(share.size(), members.size());
  for (std::size_t i = 0; i < share.size(); ++i) EXPECT_EQ(ParamsJson(share[i]), ParamsJson(candidates[members[i]]));
}

TEST(Shard, AShareDependsOnTheCandidatesNotOnTheirOrder) {
  const std::vector<ParamValues> candidates = Candidates();
  std::vector<ParamValues> reversed(candidates.rbegin(), candidates.rend());
  for (std::size_t k = 1; k <= 4; ++k) {
    const std::vector<bool> owned = ShardMembers(candidates, {k, 4});
    const std::vector<bool> owned_reversed = ShardMembers(reversed, {k, 4});
    EXPECT_EQ(Identities(candidates, Members(owned)), Identities(reversed, Members(owned_reversed))) << k;
  }
}

// Random sampling under a budget: the nodes' shares of one seed's picks are that seed's picks.
TEST(Shard, TheSharesOfARandomSweepAreOneSweepsPicksWhateverTheSeed) {
  const std::vector<ParamValues> candidates = Candidates();
  for (unsigned long long seed : {1ULL, 2ULL, 99ULL}) {
    const StrategyOptions options{"random", 40, seed, nullptr};
    const std::vector<std::size_t> whole = PlannedShare(*MakeStrategy(options, candidates, Params()), {}, {});
    ASSERT_EQ(whole.size(), 40u);
    std::vector<std::size_t> union_of_shares;
    for (std::size_t k = 1; k <= 3; ++k) {
      const std::vector<bool> owned = ShardMembers(candidates, {k, 3});
      for (std::size_t c : PlannedShare(*MakeStrategy(options, candidates, Params()), {}, owned)) {
        EXPECT_TRUE(owned[c]);
        union_of_shares.push_back(c);
      }
    }
    std::sort(union_of_shares.begin(), union_of_shares.end());
    std::vector<std::size_t> sorted_whole = whole;
    std::sort(sorted_whole.begin(), sorted_whole.end());
    EXPECT_EQ(union_of_shares, sorted_whole) << "seed " << seed;
  }
}

// A stored result per candidate: a time from a hash of its parameters, and every seventh wrong.
db::MeasurementRecord StoredResult(const ParamValues& params) {
  db::MeasurementRecord record;
  record.params_json = ParamsJson(params);
  record.launch_json = R"({"grid":[1,1,1],"block":[128,1,1],"shared_bytes":0})";
  const unsigned long long hash = ContentHash().Add(record.params_json).Value();
  record.status = hash % 7 == 0 ? CandidateStatus::kWrongResult : CandidateStatus::kOk;
  if (record.status == CandidateStatus::kOk)
    record.time_ms_median = record.time_ms_min = record.time_ms_max = 1.0 + static_cast<double>(hash % 9973) / 1000;
  record.samples = 5;
  return record;
}

// What a brute-force sweep on the card `uuid` of one H100 model stores into `path`, owning `owned`:
// every result, its three fastest marked as timed in turns.
void StoreSweep(const std::string& path, const std::string& uuid, const std::vector<ParamValues>& candidates,
                const std::vector<bool>& owned) {
  std::vector<db::MeasurementRecord> results;
  for (std::size_t c : PlannedShare(*MakeStrategy({"brute_force", 0, 0, nullptr}, candidates, Params()), {}, owned))
    results.push_back(StoredResult(candidates[c]));
  std::vector<db::MeasurementRecord*> fastest;
  for (db::MeasurementRecord& r : results)
    if (r.status == CandidateStatus::kOk) fastest.push_back(&r);
  std::sort(fastest.begin(), fastest.end(), [](auto* a, auto* b) { return a->time_ms_median < b->time_ms_median; });
  for (std::size_t i = 0; i < std::min<std::size_t>(3, fastest.size()); ++i)
    fastest[i]->reason = kConfirmedReasonPrefix;
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const std::int64_t gpu = store.EnsureGpu(db::testing::SampleGpu(uuid));
  const std::int64_t templ = store.EnsureTemplate({"synthetic", "0123456789abcdef", ""});
  const std::int64_t sweep = store.StartSweep(gpu, templ, db::testing::SampleSweep("1024"));
  for (const db::MeasurementRecord& r : results) store.AddMeasurement(sweep, r);
  store.FinishSweep(sweep, "done");
}

std::vector<db::MeasurementRecord> StoredRecords(const std::string& path) {
  std::vector<db::MeasurementRecord> records;
  for (const db::MeasurementRow& row : db::Store::Open(path, db::OpenMode::kReadOnly).ListMeasurements({}))
    records.push_back(row.measurement);
  return records;
}

std::set<std::string> StoredIdentities(const std::string& path) {
  std::set<std::string> identities;
  for (const db::MeasurementRecord& r : StoredRecords(path)) identities.insert(r.params_json);
  return identities;
}

std::vector<std::string> Identities(const std::vector<Leader>& leaders) {
  std::vector<std::string> identities;
  for (const Leader& leader : leaders) identities.push_back(leader.params_json);
  return identities;
}

TEST(Shard, MergedShardsHoldOneFullSweepAndItsBest) {
  const std::vector<ParamValues> candidates = Candidates();
  TempDir dir;
  StoreSweep(dir.File("full.db"), "GPU-full", candidates, {});
  constexpr std::size_t kNodes = 4;
  for (std::size_t k = 1; k <= kNodes; ++k) {
    const std::string shard_db = dir.File("shard" + std::to_string(k) + ".db");
    StoreSweep(shard_db, "GPU-node-" + std::to_string(k), candidates, ShardMembers(candidates, {k, kNodes}));
    const testing::CliResult merged = testing::RunTuner("db merge " + shard_db + " --db " + dir.File("merged.db"));
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
  }
  EXPECT_EQ(db::Store::Open(dir.File("merged.db"), db::OpenMode::kReadOnly).ListMeasurements({}).size(),
            candidates.size());
  EXPECT_EQ(StoredIdentities(dir.File("merged.db")), StoredIdentities(dir.File("full.db")));
  const auto full = db::Store::Open(dir.File("full.db"), db::OpenMode::kReadOnly).BestPerModel("synthetic", "");
  const auto merged = db::Store::Open(dir.File("merged.db"), db::OpenMode::kReadOnly).BestPerModel("synthetic", "");
  ASSERT_EQ(full.size(), 1u);
  ASSERT_EQ(merged.size(), 1u);  // the four nodes' cards are one model
  EXPECT_EQ(merged[0].measurement.params_json, full[0].measurement.params_json);
  EXPECT_EQ(merged[0].measurement.time_ms_median, full[0].measurement.time_ms_median);
  // What the next run on one card of the model resumes from: nothing is left to measure, and the
  // leaders it times in turns are the full sweep's (each node confirmed its own three).
  const std::vector<db::MeasurementRecord> records = StoredRecords(dir.File("merged.db"));
  const std::vector<Evaluation> history = StoredEvaluations(candidates, records);
  EXPECT_TRUE(PlannedShare(*MakeStrategy({"brute_force", 0, 0, nullptr}, candidates, Params()), history, {}).empty());
  const std::vector<Leader> leaders = ConfirmedLeaders(records, 3);
  ASSERT_EQ(leaders.size(), 3u);
  EXPECT_EQ(Identities(leaders), Identities(ConfirmedLeaders(StoredRecords(dir.File("full.db")), 3)));
  EXPECT_EQ(leaders[0].params_json, full[0].measurement.params_json);
}

TEST(Shard, TuneRefusesABadShardBeforeAnyGpuOrDatabase) {
  TempDir dir;
  const std::string db = " --db " + dir.File("t.db");
  for (const std::string args : {"--shard 0/2", "--shard 3/2", "--shard 1/2 --strategy annealing"}) {
    const testing::CliResult r = testing::RunTuner("tune transpose " + args + db);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

}  // namespace
}  // namespace tuner
