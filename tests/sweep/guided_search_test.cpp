// A guided search compiles what it measures and a short look-ahead, never the whole space, never
// waits for a compile once the strategy has stopped, and measures whichever proposal compiled
// first: a fake compiler counts the compiles.
#include "sweep/guided_search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "synthetic_spaces.h"

namespace tuner {
namespace {

using testing::Bowl;
using testing::BowlSpace;
using testing::Point;

// Counts compiles and marks each compiled candidate; a candidate compiled twice is counted twice.
struct FakeCompiler {
  explicit FakeCompiler(std::size_t candidates) : compiled(candidates) {}
  std::function<void(std::size_t, int)> Work() {
    return [this](std::size_t c, int) {
      ++compiles;
      compiled[c] = true;
    };
  }
  std::atomic<std::size_t> compiles{0};
  std::vector<std::atomic<bool>> compiled;
};

struct GuidedRun {
  std::size_t evaluations = 0, compiles = 0;
  double best_ms = 1e300;
};

// A strategy driven through a GuidedSearch against the bowl, every candidate compiled when handed over.
GuidedRun RunGuided(const std::string& name, std::size_t look_ahead, int threads, unsigned long long seed) {
  const auto& space = BowlSpace();
  StrategyOptions options{name, 0, seed, nullptr};
  const auto strategy = MakeStrategy(options, space.candidates, space.params);
  FakeCompiler compiler(space.candidates.size());
  GuidedRun run;
  {
    CompileQueue compiles(threads, compiler.Work());
    GuidedSearch search(*strategy, look_ahead, compiles);
    std::vector<Evaluation> history;
    while (const auto next = search.Next(history)) {
      EXPECT_TRUE(compiler.compiled[*next]) << name << " measured candidate " << *next << " before its compile";
      const double t = *Bowl(Point(space.candidates[*next]));
      history.push_back({*next, true, t});
      run.best_ms = std::min(run.best_ms, t);
    }
    run.evaluations = history.size();
  }
  run.compiles = compiler.compiles;
  return run;
}

TEST(GuidedSearch, CompilesTheEvaluationsAndAtMostTheLookAhead) {
  for (const std::string name : {"bayesian", "annealing", "genetic"}) {
    for (unsigned long long seed = 0; seed < 3; ++seed) {
      const GuidedRun run = RunGuided(name, 4, 2, seed);
      EXPECT_GE(run.compiles, run.evaluations) << name;
      EXPECT_LE(run.compiles, run.evaluations + 4) << name << " seed " << seed;
      EXPECT_LT(run.compiles, BowlSpace().candidates.size() / 4) << name;  // never the whole space
    }
  }
}

TEST(GuidedSearch, BayesianProposalsAheadOfTheirResultsStillFindTheOptimum) {
  // Eight proposals in flight: the model proposes without the last results, so they must not crowd.
  int at_optimum = 0;
  for (unsigned long long seed = 0; seed < 5; ++seed) at_optimum += RunGuided("bayesian", 8, 4, seed).best_ms == 1.0;
  EXPECT_GE(at_optimum, 4);
}

TEST(GuidedSearch, TheLookAheadIsTheCompileThreadsUpToSixteen) {
  EXPECT_EQ(DefaultLookAhead(0), 1u);
  EXPECT_EQ(DefaultLookAhead(6), 6u);
  EXPECT_EQ(DefaultLookAhead(64), 16u);
}

// Proposes 0, 1, 2, ... and stops once any result is in.
class StopsAfterOneResult : public SearchStrategy {
 public:
  std::optional<std::size_t> Next(const std::vector<Evaluation>& history) override {
    if (!history.empty()) return std::nullopt;
    return next_++;
  }

 private:
  std::size_t next_ = 0;
};

TEST(GuidedSearch, OnceTheStrategyStopsNoCompileIsWaitedForAndTheQueuedOnesAreDropped) {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  std::vector<std::atomic<bool>> compiled(8);
  std::atomic<std::size_t> compiles{0};
  StopsAfterOneResult strategy;
  CompileQueue queue(1, [&](std::size_t c, int) {
    ++compiles;
    if (c > 0) {  // the first compiles at once; the rest hang until the gate opens
      std::unique_lock<std::mutex> lock(mutex);
      opened.wait(lock, [&] { return open; });
    }
    compiled[c] = true;
  });
  GuidedSearch search(strategy, 4, queue);
  std::vector<Evaluation> history;
  ASSERT_EQ(search.Next(history), std::optional<std::size_t>(0));  // 0 to 3 proposed, 0 compiled
  history.push_back({0, true, 1.0});
  auto after_stop = std::async(std::launch::async, [&] { return search.Next(history); });
  ASSERT_EQ(after_stop.wait_for(std::chrono::seconds(5)), std::future_status::ready) << "waited on a hung compile";
  EXPECT_EQ(after_stop.get(), std::nullopt);
  EXPECT_LE(compiles, 2u);  // 0, and 1 if its thread took it before the stop; 2 and 3 dropped
  {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  opened.notify_all();
  EXPECT_FALSE(compiled[2]);
  EXPECT_FALSE(compiled[3]);
}

// With a budget the strategy's stop may be the budget's, reached by the proposals made ahead before
// any result (tune --strategy annealing --budget 12 proposed all 12 at once): they are all measured.
TEST(GuidedSearch, UnderABudgetTheProposalsMadeAheadAreAllMeasured) {
  StopsAfterOneResult strategy;
  std::atomic<std::size_t> compiles{0};
  CompileQueue queue(1, [&](std::size_t, int) { ++compiles; });
  GuidedSearch search(strategy, 4, queue, true);
  std::vector<Evaluation> history;
  std::vector<std::size_t> measured;
  while (const auto next = search.Next(history)) {
    measured.push_back(*next);
    history.push_back({*next, true, 1.0});
  }
  EXPECT_EQ(measured, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(compiles, 4u);
}

// Proposes 0, 1, 2, ... up to `count`, whatever the results.
class ProposesInOrder : public SearchStrategy {
 public:
  explicit ProposesInOrder(std::size_t count) : count_(count) {}
  std::optional<std::size_t> Next(const std::vector<Evaluation>&) override {
    if (next_ == count_) return std::nullopt;
    return next_++;
  }

 private:
  std::size_t count_, next_ = 0;
};

// A large candidate's compile takes many seconds: the GPU measures the proposals compiled after it
// meanwhile, and the slow one once it is ready.
TEST(GuidedSearch, ASlowCompileHoldsUpNoOtherProposal) {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  ProposesInOrder strategy(4);
  // Two threads: one stays on candidate 0, the other compiles 1, 2, 3 in that order.
  CompileQueue queue(2, [&](std::size_t c, int) {
    if (c != 0) return;
    std::unique_lock<std::mutex> lock(mutex);  // candidate 0 compiles until the gate opens
    opened.wait(lock, [&] { return open; });
  });
  GuidedSearch search(strategy, 4, queue, true);
  std::vector<Evaluation> history;
  std::vector<std::size_t> measured;
  for (int i = 0; i < 3; ++i) {
    const auto next = search.Next(history);
    ASSERT_TRUE(next.has_value());
    measured.push_back(*next);
    history.push_back({*next, true, 1.0});
  }
  EXPECT_EQ(measured, (std::vector<std::size_t>{1, 2, 3}));
  {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  opened.notify_all();
  EXPECT_EQ(search.Next(history), std::optional<std::size_t>(0));
  history.push_back({0, true, 1.0});
  EXPECT_EQ(search.Next(history), std::nullopt);
}

TEST(GuidedSearch, AWaitForACompileIsToldHowItGoesAndCanBeGivenUp) {
  std::atomic<bool> open{false};
  ProposesInOrder strategy(1);
  CompileQueue queue(1, [&](std::size_t, int) {
    while (!open) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  GuidedSearch search(strategy, 1, queue, true);
  int calls = 0;
  EXPECT_EQ(search.Next({}, [&] { return ++calls < 3; }), std::nullopt);  // Ctrl-C on the third call
  EXPECT_EQ(calls, 3);
  open = true;
  EXPECT_EQ(search.Next({}, [] { return true; }), std::optional<std::size_t>(0));
}

// Proposes 0 and 1, then nothing until both results are in, then 2: a polish waiting for its line.
class WaitsForItsProposals : public SearchStrategy {
 public:
  std::optional<std::size_t> Next(const std::vector<Evaluation>& history) override {
    results_ = history.size();
    if (next_ < 2) return next_++;
    if (next_ == 2 && results_ == 2) return next_++;
    return std::nullopt;
  }
  bool AwaitsResults() const override { return next_ < 3 || results_ < 3; }

 private:
  std::size_t next_ = 0, results_ = 0;
};

TEST(GuidedSearch, AStrategyWaitingForResultsIsAskedAgainOnceTheyAreIn) {
  WaitsForItsProposals strategy;
  CompileQueue queue(2, [](std::size_t, int) {});
  GuidedSearch search(strategy, 4, queue);
  std::vector<Evaluation> history;
  while (const auto next = search.Next(history)) history.push_back({*next, true, 1.0});
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[2].candidate, 2u);
}

// tune --strategy auto queues its estimate sample before the search starts; the strategy then
// proposes those candidates first, and they are not compiled again.
TEST(GuidedSearch, AProposalQueuedBeforeIsNotCompiledAgain) {
  std::vector<std::atomic<int>> compiles(3);
  CompileQueue queue(2, [&](std::size_t c, int) { ++compiles[c]; });
  queue.Push(0);
  queue.Push(1);
  ProposesInOrder strategy(3);
  GuidedSearch search(strategy, 4, queue, true);
  std::vector<Evaluation> history;
  while (const auto next = search.Next(history)) history.push_back({*next, true, 1.0});
  EXPECT_EQ(history.size(), 3u);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(compiles[c], 1) << "candidate " << c;
}

}  // namespace
}  // namespace tuner
