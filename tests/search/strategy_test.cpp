// Search strategies on synthetic spaces: no repeats, coverage, seeds, budgets, resumed histories,
// the neighbourhood graph, and annealing against brute force on a landscape with one optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "base/errors.h"
#include "search/candidate_graph.h"
#include "search/search_strategy.h"
#include "synthetic_spaces.h"

namespace tuner {
namespace {

using testing::Bowl;
using testing::BowlSpace;
using testing::Drive;
using testing::MakeSpace;
using testing::Point;
using testing::RunStrategy;
using testing::Space;
using testing::TimeFunction;

const std::vector<std::string> kAll = {"brute_force", "random", "annealing", "genetic", "bayesian"};

TEST(Strategy, NamesAreKnownAndUnknownIsUsageError) {
  EXPECT_EQ(StrategyNames(), kAll);
  const Space space = MakeSpace({{1, 2}});
  EXPECT_THROW(MakeStrategy({"hill_climbing", 0, 0, nullptr}, space.candidates, space.params), UsageError);
}

TEST(Strategy, OnlyBruteForceAndRandomArePlanned) {
  EXPECT_TRUE(IsPlannedStrategy("brute_force"));
  EXPECT_TRUE(IsPlannedStrategy("random"));
  for (const char* name : {"annealing", "genetic", "bayesian", "auto"}) EXPECT_FALSE(IsPlannedStrategy(name)) << name;
}

TEST(Strategy, BruteForceVisitsEveryCandidateInOrder) {
  const Space space = MakeSpace({{1, 2, 3}, {4, 5}});
  const std::vector<std::size_t> order = RunStrategy("brute_force", space, Bowl);
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Strategy, NoneRepeatsAndExhaustiveOnesCoverEverything) {
  const Space& space = BowlSpace();
  for (const std::string& name : kAll) {
    const std::vector<std::size_t> order = RunStrategy(name, space, Bowl, 7);
    const std::set<std::size_t> distinct(order.begin(), order.end());
    EXPECT_EQ(distinct.size(), order.size()) << name;
    EXPECT_LT(*distinct.rbegin(), space.candidates.size()) << name;
    if (name == "brute_force" || name == "random") {
      EXPECT_EQ(order.size(), space.candidates.size()) << name;
    }
  }
}

TEST(Strategy, SameSeedSameProposalsOtherSeedOthers) {
  const Space& space = BowlSpace();
  for (const std::string name : {"random", "annealing", "genetic", "bayesian"}) {
    EXPECT_EQ(RunStrategy(name, space, Bowl, 42), RunStrategy(name, space, Bowl, 42)) << name;
    EXPECT_NE(RunStrategy(name, space, Bowl, 42), RunStrategy(name, space, Bowl, 43)) << name;
  }
}

TEST(Strategy, BudgetIsRespected) {
  const Space& space = BowlSpace();
  for (const std::string& name : kAll) {
    EXPECT_EQ(RunStrategy(name, space, Bowl, 1, 25).size(), 25u) << name;
    EXPECT_EQ(RunStrategy(name, MakeSpace({{1, 2, 3}}), Bowl, 1, 25).size(), 3u) << name;
  }
}

TEST(Strategy, ResumedHistoryCountsAsEvaluatedAndAgainstTheBudget) {
  const Space& space = BowlSpace();
  std::vector<Evaluation> stored;
  for (std::size_t c = 0; c < 5; ++c) stored.push_back({c, true, *Bowl(Point(space.candidates[c]))});
  for (const std::string& name : kAll) {
    const auto strategy = MakeStrategy({name, 12, 3, nullptr}, space.candidates, space.params);
    const std::vector<std::size_t> order = Drive(*strategy, space, Bowl, stored);
    EXPECT_EQ(order.size(), 7u) << name;
    for (const std::size_t c : order) EXPECT_GE(c, 5u) << name;
  }
}

TEST(Strategy, OptimisersResumingAfterManyStoredResultsStillSearch) {
  const Space& space = BowlSpace();
  std::vector<Evaluation> stored;  // an interrupted brute-force sweep: its best early, 300 slower after
  for (std::size_t c = 0; c < 300; ++c) stored.push_back({c, true, 100.0 + static_cast<double>(c)});
  for (const std::string name : {"annealing", "genetic", "bayesian"}) {
    const auto strategy = MakeStrategy({name, 0, 1, nullptr}, space.candidates, space.params);
    EXPECT_GE(Drive(*strategy, space, Bowl, stored).size(), 20u) << name;
  }
}

TEST(Strategy, StoredResultsBecomeAHistoryToResumeFrom) {
  const Space space = MakeSpace({{1, 2}, {3, 4}});  // (1,3) (1,4) (2,3) (2,4)
  auto record = [&](std::optional<std::size_t> c, const std::string& status, double time_ms, int kills = 0) {
    db::MeasurementRecord r;
    r.params_json = c ? ParamsJson(space.candidates[*c]) : R"({"P0":9,"P1":9})";  // nullopt: not a candidate now
    r.status = CandidateStatusFromText(status);
    r.time_ms_median = time_ms;
    r.worker_kills = kills;
    return r;
  };
  // Candidate 1 killed its worker once: it is measured again.
  const std::vector<Evaluation> stored =
      StoredEvaluations(space.candidates, {record(2, "ok", 1.5), record(0, "compile_error", 0), record(3, "skipped", 0),
                                           record(std::nullopt, "ok", 1.0), record(1, "fault", 0, 1)});
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[0].candidate, 0u);
  EXPECT_FALSE(stored[0].ok);
  EXPECT_EQ(stored[1].candidate, 2u);
  EXPECT_TRUE(stored[1].ok);
  EXPECT_DOUBLE_EQ(stored[1].time_ms, 1.5);
  const auto strategy = MakeStrategy({"brute_force", 0, 0, nullptr}, space.candidates, space.params);
  EXPECT_EQ(Drive(*strategy, space, Bowl, stored), (std::vector<std::size_t>{1, 3}));
}

TEST(Strategy, ACandidateThatKilledItsWorkerTwiceIsNotTriedAgain) {
  const Space space = MakeSpace({{1, 2}});
  auto killed = [&](std::size_t c, const std::string& status, int kills) {
    db::MeasurementRecord r;
    r.params_json = ParamsJson(space.candidates[c]);
    r.status = CandidateStatusFromText(status);
    r.worker_kills = kills;
    return r;
  };
  for (const std::string status : {"fault", "timeout"}) {
    EXPECT_TRUE(StoredEvaluations(space.candidates, {killed(0, status, 1)}).empty()) << status;
    const auto twice = StoredEvaluations(space.candidates, {killed(0, status, 2)});
    ASSERT_EQ(twice.size(), 1u) << status;
    EXPECT_FALSE(twice[0].ok);
  }
  // A wrong result never killed anything: it is final at once.
  EXPECT_EQ(StoredEvaluations(space.candidates, {killed(1, "wrong_result", 0)}).size(), 1u);
}

TEST(Strategy, PipelinedCallsProposeDistinctCandidates) {
  const Space& space = BowlSpace();
  for (const std::string& name : kAll) {
    const auto strategy = MakeStrategy({name, 0, 5, nullptr}, space.candidates, space.params);
    std::vector<Evaluation> history;
    std::set<std::size_t> seen;
    for (int round = 0; round < 30; ++round) {
      const auto a = strategy->Next(history), b = strategy->Next(history);  // two in flight
      ASSERT_TRUE(a && b) << name;
      EXPECT_TRUE(seen.insert(*a).second && seen.insert(*b).second) << name;
      history.push_back({*a, true, *Bowl(Point(space.candidates[*a]))});
      history.push_back({*b, false, 0});  // the second one failed
    }
  }
}

TEST(Strategy, BadHistoryIsRejected) {
  const Space space = MakeSpace({{1, 2, 3}});
  const auto strategy = MakeStrategy({"annealing", 0, 0, nullptr}, space.candidates, space.params);
  EXPECT_THROW(strategy->Next({{7, true, 1.0}}), std::invalid_argument);
  const auto other = MakeStrategy({"random", 0, 0, nullptr}, space.candidates, space.params);
  other->Next({{0, true, 1.0}, {1, true, 2.0}});
  EXPECT_THROW(other->Next({{0, true, 1.0}}), std::invalid_argument);
}

TEST(Strategy, OptimisersEndWhenEveryCandidateFails) {
  const Space space = MakeSpace({{1, 2, 3, 4}, {1, 2, 3}});
  const TimeFunction fails = [](const std::vector<long long>&) { return std::nullopt; };
  for (const std::string& name : kAll)
    EXPECT_EQ(RunStrategy(name, space, fails).size(), space.candidates.size()) << name;
}

TEST(Strategy, MismatchedParametersAreRejected) {
  Space space = MakeSpace({{1, 2}, {3, 4}});
  space.params[1].name = "Q";
  EXPECT_THROW(MakeStrategy({"annealing", 0, 0, nullptr}, space.candidates, space.params), std::invalid_argument);
  space.params[1] = {"P1", {3}, {}};
  EXPECT_THROW(MakeStrategy({"genetic", 0, 0, nullptr}, space.candidates, space.params), std::invalid_argument);
}

TEST(CandidateGraph, NeighboursStepOneValueSkippingWhatConstraintsLeaveOut) {
  // P0 in {1,2,4,8}, P1 in {1,2}; (4, 1) is left out.
  const Space space =
      MakeSpace({{1, 2, 4, 8}, {1, 2}}, [](const std::vector<long long>& p) { return !(p[0] == 4 && p[1] == 1); });
  const CandidateGraph graph(space.candidates, space.params);
  ASSERT_EQ(graph.size(), 7u);  // (1,1) (1,2) (2,1) (2,2) (4,2) (8,1) (8,2)
  const auto at = [&](std::size_t a, std::size_t b) { return *graph.Find({a, b}); };
  auto neighbours = [&](std::size_t c) {
    std::vector<std::size_t> n = graph.Neighbours(c);
    std::sort(n.begin(), n.end());
    return n;
  };
  EXPECT_EQ(neighbours(at(0, 0)), (std::vector<std::size_t>{at(0, 1), at(1, 0)}));
  EXPECT_EQ(neighbours(at(1, 0)), (std::vector<std::size_t>{at(0, 0), at(1, 1), at(3, 0)}));  // over (4,1) to (8,1)
  EXPECT_EQ(neighbours(at(2, 1)), (std::vector<std::size_t>{at(1, 1), at(3, 1)}));
  EXPECT_FALSE(graph.Find({2, 0}));
  EXPECT_EQ(graph.Coordinates(at(3, 1)), (std::vector<std::size_t>{3, 1}));
}

TEST(CandidateGraph, NeighboursFollowValueOrderNotListOrder) {
  const Space space = MakeSpace({{256, 64, 128, 1024}});  // the reference value listed first
  const CandidateGraph graph(space.candidates, space.params);
  EXPECT_EQ(graph.Coordinates(0), (std::vector<std::size_t>{2}));  // 256 is third smallest
  std::vector<std::size_t> around = graph.Neighbours(0);
  std::sort(around.begin(), around.end());
  EXPECT_EQ(around, (std::vector<std::size_t>{2, 3}));  // 128 and 1024
}

// How many evaluations until the optimum, over seeds; 0 where a run did not get there.
std::vector<std::size_t> EvaluationsToOptimum(const std::string& name, const Space& space, int runs) {
  std::size_t optimum = 0;
  for (std::size_t c = 0; c < space.candidates.size(); ++c)
    if (*Bowl(Point(space.candidates[c])) < *Bowl(Point(space.candidates[optimum]))) optimum = c;
  std::vector<std::size_t> needed;
  for (int seed = 0; seed < runs; ++seed) {
    const std::vector<std::size_t> order = RunStrategy(name, space, Bowl, static_cast<unsigned long long>(seed));
    const auto it = std::find(order.begin(), order.end(), optimum);
    needed.push_back(it == order.end() ? 0 : static_cast<std::size_t>(it - order.begin()) + 1);
  }
  return needed;
}

TEST(Strategy, AnnealingFindsTheOptimumInFarFewerEvaluationsThanBruteForce) {
  const Space& space = BowlSpace();
  const std::size_t brute = EvaluationsToOptimum("brute_force", space, 1).front();
  ASSERT_GT(brute, 1500u);
  const std::vector<std::size_t> annealing = EvaluationsToOptimum("annealing", space, 20);
  EXPECT_EQ(std::count(annealing.begin(), annealing.end(), 0u), 0) << "a run stopped before the optimum";
  for (const std::size_t n : annealing) EXPECT_LT(n, brute / 10);
  const std::vector<std::size_t> genetic = EvaluationsToOptimum("genetic", space, 20);
  EXPECT_GE(std::count_if(genetic.begin(), genetic.end(), [&](std::size_t n) { return n > 0 && n < brute / 5; }), 15);
}

}  // namespace
}  // namespace tuner
