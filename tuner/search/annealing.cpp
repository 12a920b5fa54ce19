#include "search/annealing.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "search/strategy_base.h"

namespace tuner {

namespace {

// A 10% slower neighbour is first taken about half the time; at the end, almost never.
constexpr double kStartTemperature = 0.15;
constexpr double kEndTemperature = 0.005;
constexpr std::size_t kInitialSamples = 4;
constexpr std::size_t kMinHorizon = 20;  // evaluations over which T cools without a budget

class Annealing : public GraphStrategy {
 public:
  Annealing(CandidateGraph graph, const StrategyOptions& options)
      : GraphStrategy(std::move(graph), options),
        horizon_(options.max_evaluations > 0 ? options.max_evaluations : std::max(kMinHorizon, CandidateCount() / 4)) {}

 private:
  void OnResult(const Evaluation& e) override {
    const bool jump = jumps_.erase(e.candidate) > 0;
    if (!e.ok) return;
    if (EvaluatedCount() <= kInitialSamples) {
      current_ = Best();
      return;
    }
    if (!current_ || jump || Accept(Cost(*current_), e.time_ms)) current_ = e.candidate;
  }

  std::optional<std::size_t> Propose() override {
    if (Converged()) return std::nullopt;
    if (!current_ || VisitedCount() < kInitialSamples) return RandomUnvisited();
    const std::size_t steps = 8 * (graph().Neighbours(*current_).size() + 1);
    for (std::size_t step = 0; step < steps; ++step) {
      const std::vector<std::size_t>& around = graph().Neighbours(*current_);
      if (around.empty()) break;
      const std::size_t next = around[rng().Below(around.size())];
      if (!Visited(next)) return next;
      if (Known(next) && Accept(Cost(*current_), Cost(next))) current_ = next;
    }
    std::optional<std::size_t> from;
    const std::optional<std::size_t> proposal = FrontierProposal(&from);
    if (from)
      current_ = from;
    else if (proposal)
      jumps_.insert(*proposal);  // a fresh start elsewhere: moved to unconditionally
    return proposal;
  }

  bool Accept(double current_ms, double next_ms) {
    if (next_ms <= current_ms) return true;
    if (!std::isfinite(next_ms)) return false;
    return rng().Uniform() < std::exp(-(next_ms / current_ms - 1) / Temperature());
  }

  double Temperature() const {
    const double progress = std::min(1.0, static_cast<double>(EvaluatedCount()) / static_cast<double>(horizon_));
    return kStartTemperature * std::pow(kEndTemperature / kStartTemperature, progress);
  }

  std::size_t horizon_;
  std::optional<std::size_t> current_;
  std::unordered_set<std::size_t> jumps_;
};

}  // namespace

std::unique_ptr<SearchStrategy> MakeAnnealing(CandidateGraph graph, const StrategyOptions& options) {
  return std::make_unique<Annealing>(std::move(graph), options);
}

}  // namespace tuner
