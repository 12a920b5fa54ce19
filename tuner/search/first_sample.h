// The candidates `tune --strategy auto` compiles first, to estimate what brute force would cost,
// and a search then measures first: a warm start's seeds (the other sweeps' fastest, so that the
// search starts from them), then seeded random ones. `tuner simulate` replays the same sample.
#pragma once

#include <cstddef>
#include <vector>

#include "search/warm_start.h"

namespace tuner {

// `missing`: the candidates with no stored result, the sample's pool. At most `count` of them, the
// warm start's seeds among them first (in the seeds' order); `warm` may be null.
std::vector<std::size_t> FirstSample(std::vector<std::size_t> missing, std::size_t count, unsigned long long seed,
                                     const WarmStart* warm);

}  // namespace tuner
