// The candidates `tune --strategy auto` compiles first, to estimate what brute force would cost,
// and a search then measures first: the seeded random sample a cold start takes, kept whole, and a
// warm start's seeds on top of it (the other sweeps' fastest, measured first so that the search
// starts from them; search/warm_start.h: its quota). `tuner simulate` replays the same sample.
#pragma once

#include <cstddef>
#include <vector>

#include "search/warm_start.h"

namespace tuner {

// `missing`: the candidates with no stored result, the sample's pool. The cold sample: `count` of
// them drawn with `seed`. With a warm start (`warm` may be null), its seeds within the quota of a
// budget of `max_evaluations` (0: none) come first, in the seeds' order, then the whole cold sample
// less the seeds it drew itself.
std::vector<std::size_t> FirstSample(std::vector<std::size_t> missing, std::size_t count, unsigned long long seed,
                                     const WarmStart* warm, std::size_t max_evaluations = 0);

}  // namespace tuner
