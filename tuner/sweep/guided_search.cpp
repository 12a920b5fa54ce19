#include "sweep/guided_search.h"

#include <algorithm>

namespace tuner {

namespace {

constexpr std::size_t kMaxLookAhead = 16;  // a short look-ahead: the model's picks stay fresh
constexpr std::chrono::milliseconds kWaitingPoll{200};

}  // namespace

std::size_t DefaultLookAhead(int compile_threads) {
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(compile_threads, 1)), 1, kMaxLookAhead);
}

GuidedSearch::GuidedSearch(SearchStrategy& strategy, std::size_t look_ahead, CompileQueue& compiles, bool budgeted)
    : strategy_(strategy), look_ahead_(std::max<std::size_t>(look_ahead, 1)), compiles_(compiles), budgeted_(budgeted) {}

std::optional<std::size_t> GuidedSearch::Next(const std::vector<Evaluation>& history,
                                              const std::function<bool()>& waiting) {
  Refill(history);
  if (proposed_.empty()) return std::nullopt;
  // Once the strategy stopped (without a budget), only what compiled already is measured.
  if (done_ && !budgeted_) {
    const std::optional<std::size_t> compiled = compiles_.FirstDone(proposed_, std::chrono::milliseconds(0));
    return compiled ? Take(*compiled) : std::nullopt;
  }
  if (!waiting) return Take(*compiles_.FirstDone(proposed_));
  for (;;) {
    if (const std::optional<std::size_t> compiled = compiles_.FirstDone(proposed_, kWaitingPoll)) return Take(*compiled);
    if (!waiting()) return std::nullopt;
  }
}

// Keeps `look_ahead_` proposals compiling or compiled, including the one measured next.
void GuidedSearch::Refill(const std::vector<Evaluation>& history) {
  while (!done_ && proposed_.size() < look_ahead_) {
    const std::optional<std::size_t> next = strategy_.Next(history);
    if (!next && strategy_.AwaitsResults()) break;  // asked again after the next result
    if (!next) {
      done_ = true;
      if (!budgeted_) compiles_.DropQueued();
      break;
    }
    proposed_.push_back(*next);
    if (!compiles_.Queued(*next)) compiles_.Push(*next);
  }
}

// A compiled proposal, off the list.
std::optional<std::size_t> GuidedSearch::Take(std::size_t candidate) {
  proposed_.erase(std::find(proposed_.begin(), proposed_.end(), candidate));
  compiles_.Wait(candidate);  // rethrows what its compile threw
  return candidate;
}

}  // namespace tuner
