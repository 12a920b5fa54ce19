#include "db/counters.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "db/objective.h"
#include "db/row_json.h"
#include "db/speed_of_light.h"

namespace tuner::db {

const std::vector<CounterField>& CounterFields() {
  static const std::vector<CounterField> fields = {
      {"dram_throughput_pct", "DRAM throughput", "% of peak", false, 5},
      {"load_sectors_per_request", "global load sectors per request", "sectors", true, 0.5},
      {"store_sectors_per_request", "global store sectors per request", "sectors", true, 0.5},
      {"shared_bank_conflicts_per_request", "shared-memory bank conflicts per request", "conflicts", true, 0.5},
      {"achieved_occupancy_pct", "achieved occupancy", "% of warps", false, 5},
      {"warp_efficiency_pct", "active threads per warp instruction", "% of 32", false, 5},
      {"predicated_on_pct", "threads not predicated off per warp instruction", "% of 32", false, 5},
      // A divergent branch the compiler predicated: low when the active threads are scattered over
      // every warp, high when they are packed into a few (the others issue with every thread off).
      {"shared_loads_all_off_pct", "shared loads with every thread predicated off", "% of shared loads", false, 5},
  };
  return fields;
}

const CounterField* FindCounterField(const std::string& key) {
  for (const CounterField& field : CounterFields())
    if (key == field.key) return &field;
  return nullptr;
}

namespace {

nlohmann::json ParseOrNull(const std::string& counters_json) {
  if (counters_json.empty()) return nullptr;
  return nlohmann::json::parse(counters_json, nullptr, false);
}

}  // namespace

std::optional<double> CounterValue(const std::string& counters_json, const std::string& key) {
  const nlohmann::json counters = ParseOrNull(counters_json);
  if (!counters.is_object() || !counters.contains(key) || !counters[key].is_number()) return std::nullopt;
  return counters[key].get<double>();
}

std::vector<std::pair<std::string, double>> TopStalls(const std::string& counters_json) {
  const nlohmann::json counters = ParseOrNull(counters_json);
  std::vector<std::pair<std::string, double>> stalls;
  if (!counters.is_object() || !counters.contains("stalls") || !counters["stalls"].is_array()) return stalls;
  for (const nlohmann::json& s : counters["stalls"])
    if (s.is_array() && s.size() == 2 && s[0].is_string() && s[1].is_number()) stalls.emplace_back(s[0], s[1]);
  return stalls;
}

namespace {

// HardwareJson's keys, a contract of `tune --json` and `query --json`.
const std::vector<JsonKey>& HardwareKeys() {
  using R = MeasurementRecord;
  static const std::vector<JsonKey> keys = {{&R::counters_json, "/counters"},
                                            {&R::energy_j, "/energy_j"},
                                            {&R::power_w, "/power_w"},
                                            {&R::energy_launch_ms, "/energy_launch_ms"},
                                            {&R::perf_per_joule, "/perf_per_joule"}};
  return keys;
}

}  // namespace

nlohmann::json HardwareJson(const MeasurementRecord& r) {
  nlohmann::json json = RecordJson(r, HardwareKeys());
  json["perf_per_joule_unit"] = r.energy_j > 0 ? nlohmann::json(PerJouleUnit(r.perf_unit)) : nlohmann::json();
  return json;
}

namespace {

std::string Number(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace

std::string CountersText(const std::string& counters_json) {
  std::string line;
  for (const CounterField& field : CounterFields())
    if (const auto value = CounterValue(counters_json, field.key))
      line += (line.empty() ? "" : ", ") + std::string(field.label) + " " + Number(*value, 1) + " " + field.unit;
  std::string stalls;
  for (const auto& [reason, value] : TopStalls(counters_json))
    stalls += (stalls.empty() ? "" : ", ") + reason + " " + Number(value, 2);
  if (!stalls.empty())
    line += (line.empty() ? "" : ", ") + std::string("top stalls (warps per issued instruction) ") + stalls;
  return line;
}

std::string HardwareText(const MeasurementRecord& r, const std::string& indent) {
  std::string text;
  const std::string counters = CountersText(r.counters_json);
  if (!counters.empty()) text += indent + "counters: " + counters + "\n";
  if (const auto sol = SpeedOfLightOf(r.counters_json))
    text += indent + "speed of light: " + HeadroomText(*sol) + " (" + SharesText(*sol) + ")\n";
  if (r.energy_j > 0)
    text += indent + "energy: " + Number(r.energy_j * 1e3, 3) + " mJ per launch at " + Number(r.power_w, 0) + " W, " +
            Number(r.perf_per_joule, 2) + " " + PerJouleUnit(r.perf_unit) + "\n";
  return text;
}

}  // namespace tuner::db
