#include "exchange/kernel_tuner_cache.h"

#include <map>

#include "exchange/gzip_text.h"
#include "exchange/json_entry_lines.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

constexpr std::size_t kMaxCacheBytes = std::size_t{1} << 30;  // the largest published caches inflate to ~100 MiB
const char* const kFormat = "Kernel Tuner cache";

// Kernel Tuner's failure strings (util.py: ErrorConfig and its subclasses) and what they mean here.
const std::map<std::string, CandidateStatus>& Failures() {
  static const std::map<std::string, CandidateStatus> failures = {
      {"CompilationFailedConfig", CandidateStatus::kCompileError},
      {"RuntimeFailedConfig", CandidateStatus::kLaunchError},
      {"InvalidConfig", CandidateStatus::kInvalid},
      {"ErrorConfig", CandidateStatus::kLaunchError}};
  return failures;
}

// An unfinished cache ends after an entry's comma; Kernel Tuner closes it before reading.
std::string Closed(const std::string& text) {
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  if (last == std::string::npos || text[last] != ',') return text;
  return text.substr(0, last) + "\n}\n}\n";
}

std::vector<std::string> ParameterNames(const ImportedResults& results, const ordered_json& doc) {
  if (!doc.contains("tune_params_keys") || !doc["tune_params_keys"].is_array())
    RefuseField(results, "line 1", "tune_params_keys", "missing or not a list of parameter names");
  std::vector<std::string> names;
  for (const ordered_json& name : doc["tune_params_keys"]) {
    if (!name.is_string()) RefuseField(results, "line 1", "tune_params_keys", name.dump() + " is not a name");
    names.push_back(name.get<std::string>());
  }
  return names;
}

std::vector<long long> ProblemSize(const ImportedResults& results, const ordered_json& doc) {
  if (!doc.contains("problem_size")) return {};
  const ordered_json& size = doc["problem_size"];
  std::vector<long long> sizes;
  for (const ordered_json& n : size.is_array() ? size : ordered_json::array({size})) {
    if (!n.is_number_integer() || n.get<long long>() < 1)
      RefuseField(results, "line 1", "problem_size", size.dump() + " is not a list of whole numbers >= 1");
    sizes.push_back(n.get<long long>());
  }
  return sizes;
}

// The entry's failure, if a field holds one of Kernel Tuner's failure strings.
void ReadOutcome(const ImportedResults& results, const ordered_json& entry, ImportedConfig& config) {
  for (const auto& [field, value] : entry.items()) {
    if (!value.is_string()) continue;
    const auto failure = Failures().find(value.get<std::string>());
    if (failure == Failures().end()) continue;
    config.status = failure->second;
    config.reason = "Kernel Tuner: " + failure->first + (field == "time" ? "" : " (" + field + ")");
    return;
  }
  if (!entry.contains("time")) RefuseField(results, config.place, "time", "missing");
  config.time_ms = MillisecondsField(results, config.place, "time", entry["time"]);
  if (entry.contains("times")) config.runtimes_ms = RuntimesField(results, config.place, "times", entry["times"]);
}

ImportedConfig ReadEntry(const ImportedResults& results, const std::vector<std::string>& names,
                         const ordered_json& entry, const std::string& place) {
  if (!entry.is_object()) RefuseField(results, place, "cache entry", "is not an object");
  ImportedConfig config;
  config.place = place;
  config.configuration = ordered_json::object();
  for (const std::string& name : names) {
    if (!entry.contains(name)) RefuseField(results, place, name, "missing (a parameter of tune_params_keys)");
    config.configuration[name] = entry[name];
  }
  ReadOutcome(results, entry, config);
  if (entry.contains("compile_time"))
    config.compile_ms = MillisecondsField(results, place, "compile_time", entry["compile_time"]);
  if (entry.contains("timestamp")) config.measured_at = UtcTimestamp(results, place, "timestamp", entry["timestamp"]);
  return config;
}

}  // namespace

ImportedResults KernelTunerCacheFromText(const std::string& raw_text, const std::string& path) {
  ImportedResults results{kFormat, path, "", {}, {}};
  const std::string text = Closed(raw_text);
  const ordered_json doc = ParseJsonNamingLine(text, "the Kernel Tuner cache '" + path + "'");
  RefuseDuplicateKeys(results, text);
  if (!doc.is_object()) RefuseField(results, "line 1", "(document)", "is not a JSON object");
  if (!doc.contains("cache") || !doc["cache"].is_object())
    RefuseField(results, "line 1", "cache", "missing or not an object of configurations");
  const std::vector<std::string> names = ParameterNames(results, doc);
  results.problem_size = ProblemSize(results, doc);
  if (doc.contains("device_name")) {
    if (!doc["device_name"].is_string()) RefuseField(results, "line 1", "device_name", "is not a name");
    results.device_name = doc["device_name"].get<std::string>();
  }
  const std::vector<std::size_t> lines = EntryLines(text, "cache");
  std::size_t index = 0;
  for (const auto& [key, entry] : doc["cache"].items())
    results.configs.push_back(ReadEntry(results, names, entry, EntryPlace(lines, index++) + " (\"" + key + "\")"));
  if (results.configs.empty()) RefuseField(results, "line 1", "cache", "holds no configuration");
  return results;
}

ImportedResults ReadKernelTunerCache(const std::string& path) {
  return KernelTunerCacheFromText(ReadMaybeGzipped(path, kMaxCacheBytes), path);
}

}  // namespace tuner
