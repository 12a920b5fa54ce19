#include "search/warm_seeds.h"

#include <algorithm>
#include <map>
#include <set>

namespace tuner {

namespace {

class WarmSeeds : public SearchStrategy {
 public:
  WarmSeeds(std::unique_ptr<SearchStrategy> cold, std::vector<std::size_t> seeds)
      : cold_(std::move(cold)), seeds_(seeds.rbegin(), seeds.rend()) {}

  std::optional<std::size_t> Next(const std::vector<Evaluation>& history) override {
    if (history.size() < consumed_)
      throw std::invalid_argument("search history shrank from " + std::to_string(consumed_) + " to " +
                                  std::to_string(history.size()) + " evaluations");
    for (; consumed_ < history.size(); ++consumed_) Consume(history[consumed_]);
    while (!seeds_.empty()) {
      const std::size_t seed = seeds_.back();
      seeds_.pop_back();
      if (seen_.insert(seed).second) {
        hidden_.insert(seed);
        return seed;
      }
    }
    return NextOfCold();
  }

  bool AwaitsResults() const override { return cold_->AwaitsResults(); }

 private:
  // A seed's result stays hidden from the cold strategy until it proposes that candidate itself.
  void Consume(const Evaluation& e) {
    seen_.insert(e.candidate);
    if (hidden_.count(e.candidate))
      results_[e.candidate] = e;
    else
      cold_history_.push_back(e);
  }

  // The cold strategy's next proposal; a seed it proposes gets its result at once, or when it is in.
  std::optional<std::size_t> NextOfCold() {
    for (;;) {
      const std::optional<std::size_t> next = cold_->Next(cold_history_);
      if (!next || !hidden_.count(*next)) {
        if (next) seen_.insert(*next);
        return next;
      }
      hidden_.erase(*next);
      const auto result = results_.find(*next);
      if (result == results_.end()) continue;  // measuring still: its result reaches the strategy when in
      cold_history_.push_back(result->second);
      results_.erase(result);
    }
  }

  std::unique_ptr<SearchStrategy> cold_;
  std::vector<std::size_t> seeds_;             // not proposed yet, the first last
  std::set<std::size_t> seen_;                 // proposed by either, or in the history
  std::set<std::size_t> hidden_;               // seeds the cold strategy has not proposed
  std::map<std::size_t, Evaluation> results_;  // of hidden seeds
  std::vector<Evaluation> cold_history_;       // what the cold strategy has seen, in order
  std::size_t consumed_ = 0;                   // entries of the history read so far
};

}  // namespace

std::unique_ptr<SearchStrategy> WithWarmSeeds(std::unique_ptr<SearchStrategy> cold, std::vector<std::size_t> seeds) {
  return std::make_unique<WarmSeeds>(std::move(cold), std::move(seeds));
}

}  // namespace tuner
