// One node's share of a sweep spread over several machines (`tuner tune --shard K/N`, one task of
// a Slurm job array per GPU): the candidates ranked by a hash of their parameters, and shard K
// takes ranks K-1, K-1+N, ... So the N shares are disjoint, cover the space, differ in size by one
// at most, and depend only on the candidates themselves: not on the seed, the strategy, the order
// the template lists its values in, or the machine.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "search/search_strategy.h"
#include "template/search_space.h"

namespace tuner {

struct Shard {
  std::size_t number = 1;  // K, from 1
  std::size_t count = 1;   // N

  std::string Text() const;  // "2/8"
};

// "K/N" with 1 <= K <= N, both plain decimal numbers. Throws UsageError naming --shard and the text.
Shard ParseShard(const std::string& text);

// Per candidate, whether `shard` owns it.
std::vector<bool> ShardMembers(const std::vector<ParamValues>& candidates, const Shard& shard);

// The candidates `shard` owns, in their order (`tuner explore --shard`: a task's share of the compiles).
std::vector<ParamValues> ShareOf(std::vector<ParamValues> candidates, const Shard& shard);

// What a planned strategy (brute force, random) proposes after `history`, in its order, keeping
// the candidates `owned` by this node (all when empty) and, of those, the ones whose index is
// `gpu` modulo `gpus` (the GPUs of one model on this node, `--gpus`).
std::vector<std::size_t> PlannedShare(SearchStrategy& strategy, std::vector<Evaluation> history,
                                      const std::vector<bool>& owned, std::size_t gpu = 0, std::size_t gpus = 1);

}  // namespace tuner
