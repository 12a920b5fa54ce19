#include "sweep/guided_search.h"

#include <algorithm>

namespace tuner {

namespace {

constexpr std::size_t kMaxLookAhead = 16;  // a short look-ahead: the model's picks stay fresh

}  // namespace

std::size_t DefaultLookAhead(int compile_threads) {
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(compile_threads, 1)), 1, kMaxLookAhead);
}

GuidedSearch::GuidedSearch(SearchStrategy& strategy, std::size_t look_ahead, int threads,
                           std::function<void(std::size_t, int)> compile, bool budgeted)
    : strategy_(strategy),
      look_ahead_(std::max<std::size_t>(look_ahead, 1)),
      budgeted_(budgeted),
      compiles_(threads, std::move(compile)) {}

std::optional<std::size_t> GuidedSearch::Next(const std::vector<Evaluation>& history) {
  Refill(history);
  if (done_ && !budgeted_) return TakeCompiled();
  if (proposed_.empty()) return std::nullopt;
  const std::size_t next = proposed_.front();
  proposed_.pop_front();
  compiles_.Wait(next);
  return next;
}

// Keeps `look_ahead_` proposals compiling or compiled, including the one measured next.
void GuidedSearch::Refill(const std::vector<Evaluation>& history) {
  while (!done_ && proposed_.size() < look_ahead_) {
    const std::optional<std::size_t> next = strategy_.Next(history);
    if (!next) {
      done_ = true;
      if (!budgeted_) compiles_.DropQueued();
      break;
    }
    proposed_.push_back(*next);
    compiles_.Push(*next);
  }
}

// After the strategy stopped: the proposals already compiled, in order; none is waited for.
std::optional<std::size_t> GuidedSearch::TakeCompiled() {
  const auto compiled =
      std::find_if(proposed_.begin(), proposed_.end(), [&](std::size_t c) { return compiles_.Done(c); });
  if (compiled == proposed_.end()) return std::nullopt;
  const std::size_t next = *compiled;
  proposed_.erase(compiled);
  compiles_.Wait(next);  // rethrows what its compile threw
  return next;
}

}  // namespace tuner
