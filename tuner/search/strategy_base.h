// What every search strategy shares: reading the history, the budget, never proposing a candidate
// twice, a seeded generator whose sequence is the same on every platform, and stall detection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "search/candidate_graph.h"
#include "search/search_strategy.h"

namespace tuner {

// std::mt19937_64 is specified to the bit; the distributions of <random> are not, so bounded
// integers and doubles are drawn here.
class StrategyRng {
 public:
  explicit StrategyRng(unsigned long long seed) : engine_(seed) {}
  std::size_t Below(std::size_t bound);  // uniform in [0, bound), bound > 0
  double Uniform();                      // uniform in [0, 1)

 private:
  std::mt19937_64 engine_;
};

class StrategyBase : public SearchStrategy {
 public:
  StrategyBase(std::size_t candidates, const StrategyOptions& options);
  std::optional<std::size_t> Next(const std::vector<Evaluation>& history) final;

 protected:
  static constexpr double kUnknown = std::numeric_limits<double>::infinity();

  // Each evaluation, in history order, after the bookkeeping has recorded it.
  virtual void OnResult(const Evaluation&) {}
  // An unvisited candidate, or nullopt when the strategy is done.
  virtual std::optional<std::size_t> Propose() = 0;

  std::size_t CandidateCount() const { return cost_.size(); }
  std::size_t EvaluatedCount() const { return evaluated_; }
  std::size_t VisitedCount() const { return CandidateCount() - unvisited_.size(); }  // evaluated or pending
  bool Visited(std::size_t c) const { return state_[c] != State::kUnvisited; }
  bool Known(std::size_t c) const { return state_[c] == State::kKnown; }
  // Proposed (by this strategy or as its `first`) and not in the history yet, in candidate order.
  std::vector<std::size_t> Pending() const;
  // time_ms of a known ok candidate; infinity when it failed or is not known yet.
  double Cost(std::size_t c) const { return cost_[c]; }
  std::optional<std::size_t> Best() const { return best_; }
  // Evaluations this strategy proposed since the best time last improved (all of them while none
  // succeeded); results that were in the history without being proposed do not count.
  std::size_t SinceImprovement() const { return since_improvement_; }
  std::optional<std::size_t> RandomUnvisited();
  StrategyRng& rng() { return rng_; }

 private:
  enum class State : unsigned char { kUnvisited, kPending, kKnown };
  void Record(const Evaluation& evaluation);
  void MarkVisited(std::size_t c);

  std::vector<State> state_;
  std::vector<double> cost_;
  std::vector<std::size_t> unvisited_;  // unordered; position_ finds an entry in O(1)
  std::vector<std::size_t> position_;
  std::size_t consumed_ = 0;  // history entries read so far
  std::size_t evaluated_ = 0;
  std::size_t max_evaluations_;
  std::optional<std::size_t> best_;
  std::size_t since_improvement_ = 0;
  StrategyRng rng_;
  std::vector<std::size_t> first_;  // options.first not yet proposed, the first last
};

// A strategy that walks the neighbourhood graph and stops once it has gone `patience` evaluations
// without a better time.
class GraphStrategy : public StrategyBase {
 public:
  GraphStrategy(CandidateGraph graph, const StrategyOptions& options);

 protected:
  const CandidateGraph& graph() const { return graph_; }
  bool Converged() const { return Best() && SinceImprovement() >= patience_; }
  std::optional<std::size_t> RandomUnvisitedNeighbour(std::size_t c);
  // An unvisited neighbour of the fastest known candidate that still has one (that candidate in
  // *from); else any unvisited candidate (*from empty).
  std::optional<std::size_t> FrontierProposal(std::optional<std::size_t>* from);
  // The known ok candidates, fastest first, at most `count`.
  std::vector<std::size_t> Fastest(std::size_t count) const;

 private:
  CandidateGraph graph_;
  std::size_t patience_;
};

}  // namespace tuner
