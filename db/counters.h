// The hardware counters stored with a measurement (MeasurementRecord::counters_json): their keys,
// labels and units, shared by the worker that derives them, `query` and the reports.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"

namespace tuner::db {

struct CounterField {
  const char* key;    // in counters_json
  const char* label;  // for people
  const char* unit;
  bool lower_is_better;
  double least_difference;  // smaller differences explain nothing (noise, or too small to matter)
};

// Every counter, in the order reports show them.
const std::vector<CounterField>& CounterFields();

// The field of `key`, or nullptr.
const CounterField* FindCounterField(const std::string& key);

// counters_json's value of `key` (nullopt when absent, not a number, or the JSON is empty).
std::optional<double> CounterValue(const std::string& counters_json, const std::string& key);

// The warp-stall reasons in counters_json's "stalls", largest first: (reason, warps stalled per
// issued instruction).
std::vector<std::pair<std::string, double>> TopStalls(const std::string& counters_json);

// A record's counters and energy for --json: {"counters": {...} | null, "energy_j", "power_w",
// "energy_launch_ms", "perf_per_joule", "perf_per_joule_unit"}, the energy fields null when not measured.
nlohmann::json HardwareJson(const MeasurementRecord& record);

// The counters of counters_json for people, in CounterFields' order, then the top stalls:
// "DRAM throughput 81.2 % of peak, ..., top stalls (warps per issued instruction) long_scoreboard 2.10"
// ("" when none).
std::string CountersText(const std::string& counters_json);

// A record's counters, speed of light and energy for people, one line each ("" when nothing was measured):
//   counters: DRAM throughput 81.2 % of peak, ..., top stalls long_scoreboard 2.1, barrier 0.4
//   speed of light: memory-bound: DRAM 81% of peak, at the limit (SM 20%, DRAM 81%, L2 44%, L1 30%)
//   energy: 0.412 mJ per launch at 301 W, 6.11 GB/J
std::string HardwareText(const MeasurementRecord& record, const std::string& indent);

}  // namespace tuner::db
