#include "sweep/strategy_choice.h"

#include <algorithm>
#include <cmath>

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

std::string Percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%g%%", fraction * 100);
  return text;
}

}  // namespace

BruteForceCost StoredBruteForceCost(const std::vector<double>& cost_ms, int compile_threads) {
  BruteForceCost cost;
  cost.candidates = cost_ms.size();
  cost.sampled = cost_ms.size();
  cost.compile_threads = compile_threads;
  for (const double ms : cost_ms) cost.sample_compile_s += ms / 1000;
  return cost;
}

std::size_t EstimateSampleSize(int compile_threads) {
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(compile_threads, 0)), 4, 16);
}

double BruteForceCost::CompileSeconds() const {
  const std::size_t missed = sampled - std::min(sample_cached, sampled);
  if (missed == 0) return 0;  // nothing sampled, or every sampled candidate was cached
  const double miss_share = static_cast<double>(missed) / static_cast<double>(sampled);
  const double per_miss_s = sample_compile_s / static_cast<double>(missed);
  return static_cast<double>(candidates) * miss_share * per_miss_s / std::max(compile_threads, 1);
}

double BruteForceCost::Seconds() const {
  return CompileSeconds() + static_cast<double>(candidates) * gpu_s_per_candidate;
}

StrategyChoice ChooseStrategy(const BruteForceCost& cost, double threshold_s) {
  const double seconds = cost.Seconds();
  const std::string estimate =
      Grouped(cost.candidates) + " candidates: brute force about " + DurationText(seconds) + " here; ";
  if (seconds <= threshold_s)
    return {"brute_force", estimate + "measuring all (--strategy bayesian searches instead)", seconds, 0};
  return {"bayesian",
          estimate + "searching instead (stops when the expected gain is below " + Percent(kAutoMinExpectedGain) +
              "); --strategy brute_force measures all",
          seconds, kAutoMinExpectedGain, kAutoPatience};
}

StrategyChoice BruteForceToShare(const std::string& option) {
  return {"brute_force", "brute force: " + option + " shares out the candidates of a planned strategy only",
          std::nullopt, 0};
}

StrategyChoice NamedStrategy(const std::string& name) { return {name, "--strategy " + name, std::nullopt, 0}; }

nlohmann::json ToJson(const StrategyChoice& choice) {
  nlohmann::json json = {{"name", choice.strategy}, {"reason", choice.reason}};
  if (choice.brute_force_s) json["brute_force_estimate_s"] = *choice.brute_force_s;
  if (choice.min_expected_gain > 0) json["min_expected_gain"] = choice.min_expected_gain;
  if (choice.patience > 0) json["patience"] = choice.patience;
  return json;
}

}  // namespace tuner
