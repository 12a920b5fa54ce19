#include "search/strategy_base.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "db/query/best.h"

namespace tuner {

namespace {

// A converged optimiser has gone this long without a better time: at least kMinPatience
// evaluations, and a larger share of larger spaces.
constexpr std::size_t kMinPatience = 20;
constexpr std::size_t kPatienceDivisor = 8;

}  // namespace

std::size_t StrategyRng::Below(std::size_t bound) {
  // Rejection of the top partial range keeps every value equally likely.
  const std::uint64_t range = static_cast<std::uint64_t>(bound);
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % range;
  std::uint64_t x;
  do x = engine_();
  while (x >= limit);
  return static_cast<std::size_t>(x % range);
}

double StrategyRng::Uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

StrategyBase::StrategyBase(std::size_t candidates, const StrategyOptions& options)
    : state_(candidates, State::kUnvisited),
      cost_(candidates, kUnknown),
      unvisited_(candidates),
      position_(candidates),
      max_evaluations_(options.max_evaluations),
      rng_(options.seed) {
  std::iota(unvisited_.begin(), unvisited_.end(), std::size_t{0});
  std::iota(position_.begin(), position_.end(), std::size_t{0});
  first_.assign(options.first.rbegin(), options.first.rend());  // taken from the back
}

std::optional<std::size_t> StrategyBase::Next(const std::vector<Evaluation>& history) {
  if (history.size() < consumed_)
    throw std::invalid_argument("search history shrank from " + std::to_string(consumed_) + " to " +
                                std::to_string(history.size()) + " evaluations");
  for (; consumed_ < history.size(); ++consumed_) {
    Record(history[consumed_]);
    OnResult(history[consumed_]);
  }
  const std::size_t visited = CandidateCount() - unvisited_.size();
  if (unvisited_.empty() || (max_evaluations_ > 0 && visited >= max_evaluations_)) return std::nullopt;
  while (!first_.empty() && Visited(first_.back())) first_.pop_back();
  const std::optional<std::size_t> proposal = first_.empty() ? Propose() : first_.back();
  if (!proposal) return std::nullopt;
  if (*proposal >= CandidateCount() || Visited(*proposal))
    throw std::logic_error("search strategy proposed candidate " + std::to_string(*proposal) + " again");
  MarkVisited(*proposal);
  return proposal;
}

void StrategyBase::Record(const Evaluation& e) {
  if (e.candidate >= CandidateCount())
    throw std::invalid_argument("search history names candidate " + std::to_string(e.candidate) + " of " +
                                std::to_string(CandidateCount()));
  const bool proposed = state_[e.candidate] == State::kPending;  // by this strategy, not stored before it
  MarkVisited(e.candidate);
  if (state_[e.candidate] != State::kKnown) ++evaluated_;
  state_[e.candidate] = State::kKnown;
  cost_[e.candidate] = e.ok ? e.time_ms : kUnknown;
  if (e.ok && (!best_ || e.time_ms < cost_[*best_])) {
    best_ = e.candidate;
    since_improvement_ = 0;
  } else if (proposed) {
    ++since_improvement_;  // results found stored (a resumed sweep) never count as a stall
  }
}

void StrategyBase::MarkVisited(std::size_t c) {
  if (state_[c] != State::kUnvisited) return;
  state_[c] = State::kPending;
  const std::size_t last = unvisited_.back();
  unvisited_[position_[c]] = last;
  position_[last] = position_[c];
  unvisited_.pop_back();
}

std::vector<std::size_t> StrategyBase::Pending() const {
  std::vector<std::size_t> pending;
  for (std::size_t c = 0; c < CandidateCount(); ++c)
    if (state_[c] == State::kPending) pending.push_back(c);
  return pending;
}

std::optional<std::size_t> StrategyBase::RandomUnvisited() {
  if (unvisited_.empty()) return std::nullopt;
  return unvisited_[rng_.Below(unvisited_.size())];
}

GraphStrategy::GraphStrategy(CandidateGraph graph, const StrategyOptions& options)
    : StrategyBase(graph.size(), options),
      graph_(std::move(graph)),
      patience_(std::max<std::size_t>(kMinPatience, graph_.size() / kPatienceDivisor)) {}

std::optional<std::size_t> GraphStrategy::RandomUnvisitedNeighbour(std::size_t c) {
  std::vector<std::size_t> open;
  for (const std::size_t n : graph_.Neighbours(c))
    if (!Visited(n)) open.push_back(n);
  if (open.empty()) return std::nullopt;
  return open[rng().Below(open.size())];
}

std::optional<std::size_t> GraphStrategy::FrontierProposal(std::optional<std::size_t>* from) {
  for (const std::size_t c : Fastest(CandidateCount())) {
    if (const auto n = RandomUnvisitedNeighbour(c)) {
      *from = c;
      return n;
    }
  }
  from->reset();
  return RandomUnvisited();
}

std::vector<std::size_t> GraphStrategy::Fastest(std::size_t count) const {
  std::vector<std::size_t> ok;
  for (std::size_t c = 0; c < CandidateCount(); ++c)
    if (Known(c) && Cost(c) < kUnknown) ok.push_back(c);
  // The rule of "best" (db/query/best.h) with the index for the measurement id, so the order never
  // depends on the sort's implementation.
  const auto faster = [&](std::size_t a, std::size_t b) {
    return db::RanksBefore({Cost(a), Cost(a), static_cast<std::int64_t>(a)},
                           {Cost(b), Cost(b), static_cast<std::int64_t>(b)});
  };
  count = std::min(count, ok.size());
  std::partial_sort(ok.begin(), ok.begin() + static_cast<std::ptrdiff_t>(count), ok.end(), faster);
  ok.resize(count);
  return ok;
}

}  // namespace tuner
