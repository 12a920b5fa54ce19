// A guided search on its way to the GPU: the strategy's next few proposals are asked for ahead
// (SearchStrategy::Next allows it before their results are in) and compiled on the compile threads
// while the GPU measures, so that the GPU seldom waits and never more is compiled than the
// candidates measured plus the look-ahead. The GPU takes whichever proposal compiled first: a
// large candidate's compile of many seconds holds up none of the others. Once the strategy stops,
// the compiles not started are dropped and those under way are not waited for.
#pragma once

#include <cstddef>
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
  // `compiles` compiles the proposals (keyed by candidate) and outlives the search; a proposal
  // queued there already (tune --strategy auto's estimate sample) is not queued again.
  // `budgeted`: the strategy has an evaluation budget, so its stop may be the budget's, reached by
  // the proposals made ahead: those are then all measured (waited for) rather than dropped.
  GuidedSearch(SearchStrategy& strategy, std::size_t look_ahead, CompileQueue& compiles, bool budgeted = false);

  // The next candidate to measure, compiled; nullopt once the strategy is done and no compiled
  // proposal is left. `history`: every evaluation so far, as SearchStrategy::Next takes it.
  // `waiting`, when given, is called every 200 ms while no proposal has compiled yet; its false
  // (Ctrl-C) gives up the wait, and Next returns nullopt.
  std::optional<std::size_t> Next(const std::vector<Evaluation>& history,
                                  const std::function<bool()>& waiting = nullptr);
  // Asks the strategy for proposals until `look_ahead` are compiling or compiled (Next does too).
  void Refill(const std::vector<Evaluation>& history);

 private:
  std::optional<std::size_t> Take(std::size_t candidate);

  SearchStrategy& strategy_;
  std::size_t look_ahead_;
  CompileQueue& compiles_;
  std::vector<std::size_t> proposed_;  // compiling or compiled, in the order proposed
  bool done_ = false;                  // the strategy has nothing more to propose
  bool budgeted_ = false;
};

}  // namespace tuner
