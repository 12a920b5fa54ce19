#include "search/first_sample.h"

#include <algorithm>

#include "search/strategy_base.h"

namespace tuner {

std::vector<std::size_t> FirstSample(std::vector<std::size_t> missing, std::size_t count, unsigned long long seed,
                                     const WarmStart* warm) {
  count = std::min(count, missing.size());
  std::size_t taken = 0;  // missing[0, taken) is the sample so far
  const auto take = [&](std::size_t at) { std::swap(missing[taken++], missing[at]); };
  if (warm)
    for (const std::size_t s : warm->seeds) {
      if (taken == count) break;
      const auto found = std::find(missing.begin() + static_cast<std::ptrdiff_t>(taken), missing.end(), s);
      if (found != missing.end()) take(static_cast<std::size_t>(found - missing.begin()));
    }
  StrategyRng rng(seed);
  while (taken < count) take(taken + rng.Below(missing.size() - taken));
  missing.resize(count);
  return missing;
}

}  // namespace tuner
