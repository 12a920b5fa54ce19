#include "reports/winner_card.h"

#include <algorithm>
#include <cmath>

#include "db/counters.h"
#include "db/objective.h"
#include "db/speed_of_light.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

constexpr double kMeaningful = 0.10;  // a relative difference worth naming

// The one parameter in which `other` differs from `winner`, or "" (none, or several).
std::string OnlyDifference(const Run& run, const std::vector<std::string>& names, const db::MeasurementRecord& winner,
                           const db::MeasurementRecord& other) {
  std::string differing;
  for (const std::string& name : names) {
    if (run.Value(winner, name) == run.Value(other, name)) continue;
    if (!differing.empty()) return "";
    differing = name;
  }
  return differing;
}

std::vector<std::string> ParameterNames(const std::string& params_json) {
  std::vector<std::string> names;
  const nlohmann::ordered_json params = nlohmann::ordered_json::parse(params_json, nullptr, false);
  if (params.is_object())
    for (const auto& item : params.items()) names.push_back(item.key());
  return names;
}

std::string Number(double value) {
  const double magnitude = std::fabs(value);
  char text[32];
  std::snprintf(text, sizeof text, magnitude >= 100 ? "%.0f" : magnitude >= 10 ? "%.1f" : "%.2f", value);
  return text;
}

constexpr const char* kAsFast = "as fast";

// "1.61× faster", "1.05× slower" (a winner by energy may be slower), or "as fast" within 0.5%, where
// "1.00× faster" would say nothing.
std::string SpeedWords(double speedup) {
  constexpr double kSame = 1.005;
  if (!(speedup >= kSame) && !(speedup <= 1 / kSame)) return kAsFast;
  char words[48];
  std::snprintf(words, sizeof words, speedup > 1 ? "%.2f\u00d7 faster" : "%.2f\u00d7 slower",
                speedup > 1 ? speedup : 1 / speedup);
  return words;
}

// Why a comparison names no counter: one side was not profiled (a sweep's default profiles six
// candidates at most), or no counter differs enough.
std::string WhyNoCounterExplains(const db::MeasurementRecord& winner, const db::MeasurementRecord& other,
                                 const std::string& other_params) {
  if (winner.counters_json.empty() && other.counters_json.empty()) return "neither has counters";
  if (other.counters_json.empty()) return other_params + " has no counters";
  if (winner.counters_json.empty()) return "the winner has no counters";
  return "no counter differs by 10%";
}

NeighbourComparison Compare(const Run& run, const std::string& name, const db::MeasurementRecord& winner,
                            const db::MeasurementRecord& other) {
  NeighbourComparison c;
  c.parameter = name;
  c.winner_value = run.Value(winner, name);
  c.other_value = run.Value(other, name);
  c.speedup = other.time_ms_median / winner.time_ms_median;
  c.counter_key = ExplainingCounter(winner.counters_json, other.counters_json);
  const std::string speed = SpeedWords(c.speedup);
  c.sentence = name + "=" + c.winner_value + ": ";
  if (const db::CounterField* field = db::FindCounterField(c.counter_key)) {
    c.winner_counter = *db::CounterValue(winner.counters_json, c.counter_key);
    c.other_counter = *db::CounterValue(other.counters_json, c.counter_key);
    const std::string percent = field->unit[0] == '%' ? "%" : "";
    c.sentence += Number(c.winner_counter) + percent + " " + field->label + " against " + Number(c.other_counter) +
                  percent + " for " + name + "=" + c.other_value + "; " + speed;
  } else {
    c.sentence += speed + (speed == kAsFast ? " as " : " than ") + name + "=" + c.other_value + " (" +
                  WhyNoCounterExplains(winner, other, name + "=" + c.other_value) + ")";
  }
  return c;
}

}  // namespace

std::string ExplainingCounter(const std::string& winner_json, const std::string& other_json) {
  std::string best_key;
  double best_difference = kMeaningful;
  for (const db::CounterField& field : db::CounterFields()) {
    const auto w = db::CounterValue(winner_json, field.key), o = db::CounterValue(other_json, field.key);
    if (!w || !o || std::fabs(*w - *o) < field.least_difference) continue;
    const double scale = std::max(std::fabs(*w), std::fabs(*o));
    if (scale <= 0) continue;
    const double favour = (field.lower_is_better ? *o - *w : *w - *o) / scale;
    if (favour > best_difference) {
      best_difference = favour;
      best_key = field.key;
    }
  }
  return best_key;
}

WinnerCard MakeWinnerCard(const Run& run) {
  WinnerCard card;
  const db::MeasurementRow* best = run.Best();
  if (!best) return card;
  const db::MeasurementRecord& winner = best->measurement;
  card.params = run.Params(winner);
  const std::vector<std::string> names = ParameterNames(winner.params_json);
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& other = row.measurement;
    if (&row == best || !IsOk(other.status) || !(winner.time_ms_median > 0)) continue;
    const std::string name = OnlyDifference(run, names, winner, other);
    if (!name.empty()) card.neighbours.push_back(Compare(run, name, winner, other));
  }
  std::stable_sort(card.neighbours.begin(), card.neighbours.end(),
                   [](const NeighbourComparison& a, const NeighbourComparison& b) { return a.speedup > b.speedup; });
  card.counters = db::CountersText(winner.counters_json);
  if (const auto sol = db::SpeedOfLightOf(winner.counters_json))
    card.headroom = db::HeadroomText(*sol) + " (" + db::SharesText(*sol) + ")";
  if (winner.energy_j > 0)
    card.energy = Number(winner.energy_j * 1e3) + " mJ per launch at " + Number(winner.power_w) + " W, " +
                  Number(winner.perf_per_joule) + " " + db::PerJouleUnit(winner.perf_unit);
  return card;
}

}  // namespace tuner::report
