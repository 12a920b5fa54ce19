// A small sample of a large search space, for tests that cannot afford to compile every candidate:
// for every two parameters (and every single one), each pair of values that some candidate has is
// held by a candidate of the sample. Bugs that take two parameters to show (a vector width with a
// layout, a tile with an unroll) are reached without the whole space: the 12,064 candidates of
// gemm_large come down to 24. Greedy: each pick covers the most pairs still missing, the earliest
// candidate on ties, so the sample is the same on every run.
#pragma once

#include <set>
#include <tuple>
#include <vector>

#include "template/search_space.h"

namespace tuner::testing {

// (parameter i, its value, parameter j, its value) with i <= j, by position in the candidate.
using ValuePair = std::tuple<std::size_t, long long, std::size_t, long long>;

inline std::vector<ValuePair> ValuePairs(const ParamValues& candidate) {
  std::vector<ValuePair> pairs;
  for (std::size_t i = 0; i < candidate.size(); ++i)
    for (std::size_t j = i; j < candidate.size(); ++j)
      pairs.emplace_back(i, candidate[i].second, j, candidate[j].second);
  return pairs;
}

inline std::vector<ParamValues> PairwiseSample(const std::vector<ParamValues>& candidates) {
  std::vector<std::vector<ValuePair>> pairs;
  std::set<ValuePair> missing;
  for (const ParamValues& c : candidates) {
    pairs.push_back(ValuePairs(c));
    missing.insert(pairs.back().begin(), pairs.back().end());
  }
  std::vector<ParamValues> sample;
  while (!missing.empty()) {
    std::size_t best = 0, best_gain = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      std::size_t gain = 0;
      for (const ValuePair& p : pairs[i]) gain += missing.count(p);
      if (gain > best_gain) best = i, best_gain = gain;
    }
    sample.push_back(candidates[best]);
    for (const ValuePair& p : pairs[best]) missing.erase(p);
  }
  return sample;
}

// Above this many candidates a test compiles a template's pairwise sample (gemm_large: 12,064
// candidates, about an hour on two cores, against 24 in under a minute); `tuner explore` compiles
// them all.
constexpr std::size_t kCompileAllUpTo = 2000;

inline std::vector<ParamValues> CandidatesToCompile(const TemplateSpec& spec, const ProblemSize& size) {
  std::vector<ParamValues> candidates = EnumerateCandidates(spec, size);
  return candidates.size() > kCompileAllUpTo ? PairwiseSample(candidates) : candidates;
}

}  // namespace tuner::testing
