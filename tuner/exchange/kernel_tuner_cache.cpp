#include "exchange/kernel_tuner_cache.h"

#include <map>
#include <memory>

#include "common/input_limits.h"
#include "exchange/gzip_text.h"
#include "exchange/json_entry_lines.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

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

// An unfinished cache ends after an entry's comma; Kernel Tuner closes it before reading. The text
// comes in pieces, so a piece's trailing comma is held back until the next shows whether more
// follows: at the end it becomes the closing braces.
TextChunks Closed(TextChunks chunks) {
  struct State {
    TextChunks chunks;
    std::string held;  // a trailing comma and the blanks after it
    bool ended = false;
  };
  auto state = std::make_shared<State>(State{std::move(chunks), "", false});
  return [state](std::string* chunk) {
    if (state->ended) return false;
    if (!state->chunks(chunk)) {
      state->ended = true;
      *chunk = state->held.empty() ? "" : "\n}\n}\n";
      return !state->held.empty();
    }
    chunk->insert(0, state->held);
    state->held.clear();
    const std::size_t last = chunk->find_last_not_of(" \t\r\n");
    if (last != std::string::npos && (*chunk)[last] == ',') {
      state->held = chunk->substr(last);
      chunk->resize(last);
    }
    return true;
  };
}

std::vector<std::string> ParameterNames(const ImportedResults& results, const ordered_json& doc) {
  if (!doc.contains("tune_params_keys") || !doc["tune_params_keys"].is_array())
    RefuseField(results, "line 1", "tune_params_keys", "missing or not a list of parameter names");
  std::vector<std::string> names;
  for (const ordered_json& name : doc["tune_params_keys"]) {
    if (!name.is_string()) RefuseField(results, "line 1", "tune_params_keys", Shown(name) + " is not a name");
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
      RefuseField(results, "line 1", "problem_size", Shown(size) + " is not a list of whole numbers >= 1");
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

ImportedResults KernelTunerCacheFromChunks(const TextChunks& chunks, const std::string& path) {
  ImportedResults results{kFormat, path, "", {}, {}};
  JsonEntries parsed = ParseJsonEntries(Closed(chunks), "cache", "the Kernel Tuner cache '" + path + "'");
  const ordered_json& doc = parsed.document;
  if (!doc.is_object()) RefuseField(results, "line 1", "(document)", "is not a JSON object");
  if (!doc.contains("cache") || !doc["cache"].is_object())
    RefuseField(results, "line 1", "cache", "missing or not an object of configurations");
  const std::vector<std::string> names = ParameterNames(results, doc);
  results.problem_size = ProblemSize(results, doc);
  if (doc.contains("device_name")) {
    if (!doc["device_name"].is_string()) RefuseField(results, "line 1", "device_name", "is not a name");
    results.device_name = doc["device_name"].get<std::string>();
  }
  results.configs.reserve(parsed.entries.size());
  for (JsonEntry& entry : parsed.entries) {
    results.configs.push_back(
        ReadEntry(results, names, entry.value, EntryPlace(entry) + " (\"" + Excerpt(entry.key) + "\")"));
    entry.value = nullptr;  // its configuration is copied: the parsed entry's memory goes now, not at the end
  }
  if (results.configs.empty()) RefuseField(results, "line 1", "cache", "holds no configuration");
  return results;
}

}  // namespace

ImportedResults KernelTunerCacheFromText(const std::string& text, const std::string& path) {
  return KernelTunerCacheFromChunks(WholeText(text), path);
}

ImportedResults ReadKernelTunerCache(const std::string& path) {
  return KernelTunerCacheFromChunks(MaybeGzippedChunks(path), path);
}

}  // namespace tuner
