#include "search/first_sample.h"

#include <algorithm>

#include "search/strategy_base.h"

namespace tuner {

namespace {

// `count` of `missing`, drawn with `seed`.
std::vector<std::size_t> ColdSample(std::vector<std::size_t> missing, std::size_t count, unsigned long long seed) {
  count = std::min(count, missing.size());
  StrategyRng rng(seed);
  for (std::size_t taken = 0; taken < count; ++taken)
    std::swap(missing[taken], missing[taken + rng.Below(missing.size() - taken)]);
  missing.resize(count);
  return missing;
}

bool Contains(const std::vector<std::size_t>& list, std::size_t c) {
  return std::find(list.begin(), list.end(), c) != list.end();
}

}  // namespace

std::vector<std::size_t> FirstSample(std::vector<std::size_t> missing, std::size_t count, unsigned long long seed,
                                     const WarmStart* warm, std::size_t max_evaluations) {
  std::vector<std::size_t> cold = ColdSample(missing, count, seed);
  if (!warm) return cold;
  std::vector<std::size_t> sample;
  for (const std::size_t s : SeedsWithinQuota(*warm, max_evaluations))
    if (Contains(missing, s)) sample.push_back(s);  // a seed stored already is not measured again
  for (const std::size_t c : cold)
    if (!Contains(sample, c)) sample.push_back(c);
  return sample;
}

}  // namespace tuner
