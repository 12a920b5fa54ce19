// `--strategy auto`, tune's default: what a brute-force sweep of the candidates still to measure
// would cost on this machine, estimated before measuring (a seeded sample compiled first: its
// cubin-cache hits cost nothing, its misses give the compile time; the GPU's share at a floor per
// candidate), and the choice it leads to: brute force when it takes at most kAutoThresholdS, else
// the Bayesian strategy (warm-started where the store allows), stopped once the expected gain of a
// further evaluation is below kAutoMinExpectedGain or after kAutoPatience evaluations without a
// better time.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

inline constexpr char kAutoStrategy[] = "auto";
inline constexpr double kAutoThresholdS = 120;         // two minutes: longer is worth a search
inline constexpr double kAutoMinExpectedGain = 0.005;  // the search stops when it expects < 0.5%
// or after this many evaluations without a better time (then it polishes: search/bayesian.cpp). On
// the community's convolution on an H100, replayed as tune runs it (50 runs, bench/benchmarks.md),
// 20 came within 1% in 48 runs, 30 in 46, and took longer
inline constexpr std::size_t kAutoPatience = 20;
inline constexpr double kGpuFloorS = 0.02;             // a candidate's worker round trip: check and one launch
// How often the estimate looks again at its sample's compiles while none finishes: a running
// compile's time so far raises the lower bound that may settle the choice.
inline constexpr double kEstimatePollS = 0.1;

struct BruteForceCost {
  std::size_t candidates = 0;     // still to measure
  std::size_t sampled = 0;        // compiled first to estimate
  std::size_t sample_cached = 0;  // of those, found in the cubin cache
  double sample_compile_s = 0;    // the sample's compiles that missed the cache, summed
  // Of the sample, compiles not finished (queued or running), each running at least `running_s`
  // so far and counted as that: the estimate is then a lower bound.
  std::size_t sample_running = 0;
  double running_s = 0;
  int compile_threads = 1;
  double gpu_s_per_candidate = kGpuFloorS;

  double CompileSeconds() const;  // the candidates' compiles spread over the threads
  double Seconds() const;         // and the GPU's share
  // The choice is known: every sampled compile is done, or the lower bound is already above
  // `threshold_s`, so a search need not wait for the sample's slowest compile.
  bool Settled(double threshold_s = kAutoThresholdS) const;
  // One sampled compile: done, taking `seconds` (nothing when `cached`), or not yet, having run
  // `seconds` so far (0 while queued).
  void AddSampled(bool done, bool cached, double seconds);
};

struct StrategyChoice {
  std::string strategy;                 // what runs: brute_force or bayesian
  std::string reason;                   // one line for stderr and tune --json
  std::optional<double> brute_force_s;  // the estimate, when one was made
  bool at_least = false;                // the estimate is a lower bound (BruteForceCost::sample_running)
  double min_expected_gain = 0;         // the search's stopping rule (0: none)
  std::size_t patience = 0;             // and its evaluations without a better time (0: the strategy's own)
};

// A replay's estimate (tuner simulate --strategy auto): every candidate's stored compile and run
// time, `cost_ms` (0 where the store does not know), stands for its compile, spread over
// `compile_threads`; the GPU's floor per candidate on top. Unknown costs leave the floor alone.
BruteForceCost StoredBruteForceCost(const std::vector<double>& cost_ms, int compile_threads);

// When tune's estimate settles (BruteForceCost::Settled) for `candidates` still to measure, its
// sample's compiles taking `sample_compile_s` each on `compile_threads` threads from time 0, looked
// at as each finishes and every kEstimatePollS: what a replay of tune --strategy auto waits.
double SettlesAfterS(const std::vector<double>& sample_compile_s, std::size_t candidates, int compile_threads,
                     double threshold_s = kAutoThresholdS);

// Candidates compiled to estimate: one per compile thread, 4 to 16.
std::size_t EstimateSampleSize(int compile_threads);

// Given --strategy auto and the estimated cost, settled (BruteForceCost::Settled). `threshold_s`:
// kAutoThresholdS but in tests.
StrategyChoice ChooseStrategy(const BruteForceCost& cost, double threshold_s = kAutoThresholdS);

// --strategy auto with --gpus or --shard, which share out the candidates of a planned strategy
// only: brute force. `option`: "--gpus" or "--shard".
StrategyChoice BruteForceToShare(const std::string& option);

// A strategy the user named.
StrategyChoice NamedStrategy(const std::string& name);

nlohmann::json ToJson(const StrategyChoice& choice);

}  // namespace tuner
