#include "sweep/shard.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <regex>

#include "base/errors.h"
#include "base/number_text.h"
#include "common/content_hash.h"
#include "common/option_values.h"

namespace tuner {

namespace {

// FNV-1a's low bits depend on the low bits of the input bytes alone; a finaliser (MurmurHash3's)
// spreads every bit over all of them before the ranking.
std::uint64_t Mixed(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

}  // namespace

std::string Shard::Text() const { return std::to_string(number) + "/" + std::to_string(count); }

Shard ParseShard(const std::string& text) {
  static const std::regex form("([1-9][0-9]{0,8})/([1-9][0-9]{0,8})");
  std::smatch parts;
  if (!std::regex_match(text, parts, form))
    throw UsageError("--shard " + Quoted(text) + ": expected K/N, this node's share K of N (1 <= K <= N), e.g. 3/8");
  const Shard shard{*ReadWholeNumber(parts[1])->magnitude, *ReadWholeNumber(parts[2])->magnitude};  // digits only
  if (shard.number > shard.count)
    throw UsageError("--shard " + Quoted(text) + ": share " + parts[1].str() + " of " + parts[2].str() +
                     " does not exist (K runs from 1 to N)");
  return shard;
}

std::vector<bool> ShardMembers(const std::vector<ParamValues>& candidates, const Shard& shard) {
  std::vector<std::uint64_t> keys(candidates.size());
  std::vector<std::string> identities(candidates.size());
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    identities[c] = ParamsJson(candidates[c]);  // the candidate's identity in every database
    keys[c] = Mixed(ContentHash().Add(identities[c]).Value());
  }
  std::vector<std::size_t> ranked(candidates.size());
  std::iota(ranked.begin(), ranked.end(), std::size_t{0});
  std::sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    return keys[a] != keys[b] ? keys[a] < keys[b] : identities[a] < identities[b];
  });
  std::vector<bool> members(candidates.size(), false);
  for (std::size_t rank = shard.number - 1; rank < ranked.size(); rank += shard.count) members[ranked[rank]] = true;
  return members;
}

std::vector<ParamValues> ShareOf(std::vector<ParamValues> candidates, const Shard& shard) {
  const std::vector<bool> owned = ShardMembers(candidates, shard);
  std::vector<ParamValues> share;
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (owned[c]) share.push_back(std::move(candidates[c]));
  return share;
}

std::vector<std::size_t> PlannedShare(SearchStrategy& strategy, std::vector<Evaluation> history,
                                      const std::vector<bool>& owned, std::size_t gpu, std::size_t gpus) {
  std::vector<std::size_t> order;
  while (const auto next = strategy.Next(history)) {
    if ((owned.empty() || owned[*next]) && *next % gpus == gpu) order.push_back(*next);
    history.push_back({*next, false, 0});
  }
  return order;
}

}  // namespace tuner
