#include "sweep/strategy_choice.h"

#include <algorithm>
#include <cmath>

#include "base/percent_text.h"
#include "common/progress_bar.h"

namespace tuner {

namespace {

// 4362 as "4,362".
std::string Grouped(std::size_t n) {
  std::string digits = std::to_string(n), text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

}  // namespace

BruteForceCost StoredBruteForceCost(const std::vector<double>& cost_ms, int compile_threads) {
  BruteForceCost cost;
  cost.candidates = cost_ms.size();
  cost.compile_threads = compile_threads;
  for (const double ms : cost_ms) cost.AddSampled(true, false, ms / 1000);
  return cost;
}

double SettlesAfterS(const std::vector<double>& sample_compile_s, std::size_t candidates, int compile_threads,
                     double threshold_s) {
  std::vector<double> free_at(static_cast<std::size_t>(std::max(compile_threads, 1)), 0.0), start, end;
  for (const double s : sample_compile_s) {  // in order, each on the first free thread
    const auto thread = std::min_element(free_at.begin(), free_at.end());
    start.push_back(*thread);
    end.push_back(*thread += s);
  }
  for (double now = 0;;) {
    BruteForceCost cost;
    cost.candidates = candidates;
    cost.compile_threads = compile_threads;
    double next = now + kEstimatePollS;
    for (std::size_t i = 0; i < end.size(); ++i) {
      const bool done = end[i] <= now;
      cost.AddSampled(done, false, done ? sample_compile_s[i] : std::max(now - start[i], 0.0));
      if (!done) next = std::min(next, end[i]);
    }
    if (cost.Settled(threshold_s)) return now;
    now = next;
  }
}

std::size_t EstimateSampleSize(int compile_threads) {
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(compile_threads, 0)), 4, 16);
}

// The sample's mean compile, a cache hit counting nothing, for each candidate, over the threads.
double BruteForceCost::CompileSeconds() const {
  if (sampled == 0) return 0;
  const double sample_s = sample_compile_s + static_cast<double>(sample_running) * running_s;
  return static_cast<double>(candidates) * sample_s / static_cast<double>(sampled) / std::max(compile_threads, 1);
}

bool BruteForceCost::Settled(double threshold_s) const { return sample_running == 0 || Seconds() > threshold_s; }

void BruteForceCost::AddSampled(bool done, bool cached, double seconds) {
  ++sampled;
  if (!done)
    running_s = sample_running++ ? std::min(running_s, seconds) : seconds;
  else if (cached)
    ++sample_cached;
  else
    sample_compile_s += seconds;
}

double BruteForceCost::Seconds() const {
  return CompileSeconds() + static_cast<double>(candidates) * gpu_s_per_candidate;
}

StrategyChoice ChooseStrategy(const BruteForceCost& cost, double threshold_s) {
  const double seconds = cost.Seconds();
  const bool at_least = cost.sample_running > 0;
  const std::string estimate = Grouped(cost.candidates) + " candidates: brute force " +
                               (at_least ? "at least " : "about ") + DurationText(seconds) + " here; ";
  if (seconds <= threshold_s)
    return {"brute_force", estimate + "measuring all (--strategy bayesian searches instead)", seconds, at_least, 0};
  return {"bayesian",
          estimate + "searching instead (stops when the expected gain is below " + PercentTextSignificant(kAutoMinExpectedGain, 6) +
              "); --strategy brute_force measures all",
          seconds, at_least, kAutoMinExpectedGain, kAutoPatience};
}

StrategyChoice BruteForceToShare(const std::string& option) {
  return {"brute_force", "brute force: " + option + " shares out the candidates of a planned strategy only",
          std::nullopt, false, 0};
}

StrategyChoice NamedStrategy(const std::string& name) { return {name, "--strategy " + name, std::nullopt, false, 0}; }

nlohmann::json ToJson(const StrategyChoice& choice) {
  nlohmann::json json = {{"name", choice.strategy}, {"reason", choice.reason}};
  if (choice.brute_force_s) json["brute_force_estimate_s"] = *choice.brute_force_s;
  if (choice.at_least) json["brute_force_estimate_is_lower_bound"] = true;
  if (choice.min_expected_gain > 0) json["min_expected_gain"] = choice.min_expected_gain;
  if (choice.patience > 0) json["patience"] = choice.patience;
  return json;
}

}  // namespace tuner
