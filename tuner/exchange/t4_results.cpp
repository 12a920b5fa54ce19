#include "exchange/t4_results.h"

#include <map>

#include "exchange/gzip_text.h"
#include "exchange/json_entry_lines.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

const char* const kFormat = "T4 file";

const ordered_json& Field(const ImportedResults& results, const std::string& place, const ordered_json& object,
                          const std::string& name) {
  if (!object.contains(name)) RefuseField(results, place, name, "missing");
  return object[name];
}

// The objective's value among the measurements: the first objective named, "time" if none is.
const ordered_json& ObjectiveValue(const ImportedResults& results, const std::string& place,
                                   const ordered_json& entry) {
  std::string objective = "time";
  if (entry.contains("objectives") && entry["objectives"].is_array() && !entry["objectives"].empty() &&
      entry["objectives"][0].is_string())
    objective = entry["objectives"][0].get<std::string>();
  const ordered_json& measurements = Field(results, place, entry, "measurements");
  if (!measurements.is_array()) RefuseField(results, place, "measurements", "is not a list");
  for (const ordered_json& m : measurements)
    if (m.is_object() && m.contains("name") && m["name"] == objective && m.contains("value")) return m["value"];
  RefuseField(results, place, "measurements", "has no value of the objective '" + objective + "'");
}

void ReadTimes(const ImportedResults& results, const ordered_json& entry, ImportedConfig& config) {
  if (!entry.contains("times")) return;
  const ordered_json& times = entry["times"];
  if (!times.is_object()) RefuseField(results, config.place, "times", "is not an object");
  for (const char* name : {"compilation", "compilation_time"})  // the schema's name, and tuner's older export's
    if (times.contains(name))
      config.compile_ms = MillisecondsField(results, config.place, std::string("times.") + name, times[name]);
  if (times.contains("runtimes"))
    config.runtimes_ms = RuntimesField(results, config.place, "times.runtimes", times["runtimes"]);
}

ImportedConfig ReadEntry(const ImportedResults& results, const ordered_json& entry, const std::string& place) {
  if (!entry.is_object()) RefuseField(results, place, "results entry", "is not an object");
  ImportedConfig config;
  config.place = place;
  config.configuration = Field(results, place, entry, "configuration");
  if (!config.configuration.is_object()) RefuseField(results, place, "configuration", "is not an object");
  const ordered_json& invalidity = Field(results, place, entry, "invalidity");
  const std::optional<CandidateStatus> status =
      invalidity.is_string() ? StatusOfT4Invalidity(invalidity.get<std::string>()) : std::nullopt;
  if (!status)
    RefuseField(
        results, place, "invalidity",
        "is " + Shown(invalidity) + ", not one of correct, compile, runtime, timeout, correctness, constraints");
  config.status = *status;
  ReadTimes(results, entry, config);
  if (IsOk(config.status))
    config.time_ms =
        MillisecondsField(results, place, "measurements (the objective)", ObjectiveValue(results, place, entry));
  else
    config.reason = "T4: " + invalidity.get<std::string>();
  if (entry.contains("timestamp")) config.measured_at = UtcTimestamp(results, place, "timestamp", entry["timestamp"]);
  return config;
}

std::string DeviceName(const ordered_json& doc) {
  const ordered_json::json_pointer name("/metadata/environment/device_query/name");
  return doc.contains(name) && doc[name].is_string() ? doc[name].get<std::string>() : "";
}

}  // namespace

std::optional<CandidateStatus> StatusOfT4Invalidity(const std::string& invalidity) {
  static const std::map<std::string, CandidateStatus> statuses = {{"correct", CandidateStatus::kOk},
                                                                  {"compile", CandidateStatus::kCompileError},
                                                                  {"runtime", CandidateStatus::kLaunchError},
                                                                  {"timeout", CandidateStatus::kTimeout},
                                                                  {"correctness", CandidateStatus::kWrongResult},
                                                                  {"constraints", CandidateStatus::kInvalid}};
  const auto found = statuses.find(invalidity);
  if (found == statuses.end()) return std::nullopt;
  return found->second;
}

namespace {

ImportedResults T4ResultsFromChunks(const TextChunks& chunks, const std::string& path) {
  ImportedResults results{kFormat, path, "", {}, {}};
  JsonEntries parsed = ParseJsonEntries(chunks, "results", "the T4 file '" + path + "'");
  const ordered_json& doc = parsed.document;
  if (!doc.is_object()) RefuseField(results, "line 1", "(document)", "is not a JSON object");
  if (!doc.contains("results") || !doc["results"].is_array())
    RefuseField(results, "line 1", "results", "missing or not a list of results");
  results.device_name = DeviceName(doc);
  results.configs.reserve(parsed.entries.size());
  for (std::size_t i = 0; i < parsed.entries.size(); ++i) {
    results.configs.push_back(ReadEntry(results, parsed.entries[i].value,
                                        EntryPlace(parsed.entries[i]) + " (results[" + std::to_string(i) + "])"));
    parsed.entries[i].value = nullptr;  // its configuration is copied: the parsed entry's memory goes now
  }
  if (results.configs.empty()) RefuseField(results, "line 1", "results", "holds no configuration");
  return results;
}

}  // namespace

ImportedResults T4ResultsFromText(const std::string& text, const std::string& path) {
  return T4ResultsFromChunks(WholeText(text), path);
}

ImportedResults ReadT4Results(const std::string& path) { return T4ResultsFromChunks(MaybeGzippedChunks(path), path); }

}  // namespace tuner
