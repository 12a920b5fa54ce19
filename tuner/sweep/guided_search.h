// A guided search on its way to the GPU: the strategy's next few proposals are asked for ahead
// (SearchStrategy::Next allows it before their results are in) and compiled on the compile threads
// while the GPU measures, so that the GPU seldom waits and never more is compiled than the
// candidates measured plus the look-ahead. Once the strategy stops, the compiles not started are
// dropped and those under way are not waited for.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "compile/compile_queue.h"
#include "search/search_strategy.h"

namespace tuner {

// Proposals compiling ahead of the GPU: the compile threads, at most 16.
std::size_t DefaultLookAhead(int compile_threads);

class GuidedSearch {
 public:
  // compile(candidate, thread) compiles one candidate on compile thread `thread` and keeps it.
  // `budgeted`: the strategy has an evaluation budget, so its stop may be the budget's, reached by
  // the proposals made ahead: those are then all measured (waited for) rather than dropped.
  GuidedSearch(SearchStrategy& strategy, std::size_t look_ahead, int threads,
               std::function<void(std::size_t candidate, int thread)> compile, bool budgeted = false);

  // The next candidate to measure, compiled; nullopt once the strategy is done and no compiled
  // proposal is left. `history`: every evaluation so far, as SearchStrategy::Next takes it.
  std::optional<std::size_t> Next(const std::vector<Evaluation>& history);
  // Asks the strategy for proposals until `look_ahead` are compiling or compiled (Next does too).
  void Refill(const std::vector<Evaluation>& history);
  std::size_t compiles_started() const { return compiles_.started(); }

 private:
  std::optional<std::size_t> TakeCompiled();

  SearchStrategy& strategy_;
  std::size_t look_ahead_;
  std::deque<std::size_t> proposed_;  // compiling or compiled, in the order proposed
  bool done_ = false;                 // the strategy has nothing more to propose
  bool budgeted_ = false;
  CompileQueue compiles_;             // last: its threads end before the rest goes
};

}  // namespace tuner
