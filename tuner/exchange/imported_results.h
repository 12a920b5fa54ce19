// Published tuning results read from another tool's file (a Kernel Tuner cache, a T4 results file):
// every configuration with its outcome and the times the file records, before they are matched to
// a template and stored (imported_sweep.h).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/candidate_status.h"
#include "base/errors.h"

namespace tuner {

// One configuration as the file records it.
struct ImportedConfig {
  std::string place;                     // "line 7": where the file holds it, for messages
  nlohmann::ordered_json configuration;  // parameter name -> value, in the file's order
  CandidateStatus status = CandidateStatus::kOk;
  std::string reason;               // why it failed, in the file's words ("RuntimeFailedConfig")
  double time_ms = 0;               // the objective: the file's time (ok only)
  std::vector<double> runtimes_ms;  // the repeated runs behind it, if recorded
  double compile_ms = 0;            // 0 when the file records none
  std::string measured_at;          // ISO 8601 UTC, "" when the file records none
};

struct ImportedResults {
  std::string format;  // "Kernel Tuner cache", "T4"
  std::string path;
  std::string device_name;              // "" when the file does not name the GPU
  std::vector<long long> problem_size;  // empty when the file does not say
  std::vector<ImportedConfig> configs;  // in the file's order
};

// A results file that cannot be imported: "the T4 file 'x.json', line 12, field times.runtimes: ...".
struct ImportedFileError : UsageError {
  using UsageError::UsageError;
};

// A value as a message shows it: its JSON, at most ~200 characters of it.
std::string Shown(const nlohmann::ordered_json& value);

// Throws ImportedFileError naming the file, the place and the field.
[[noreturn]] void RefuseField(const ImportedResults& results, const std::string& place, const std::string& field,
                              const std::string& problem);

// A time in milliseconds from `value`: a finite number >= 0, else refused naming `field`.
double MillisecondsField(const ImportedResults& results, const std::string& place, const std::string& field,
                         const nlohmann::ordered_json& value);

// "2023-12-22 09:54:05.502007+00:00" (Kernel Tuner's) as "2023-12-22T09:54:05Z"; "" stays "".
// Refused naming `field` when it is not such a time in UTC.
std::string UtcTimestamp(const ImportedResults& results, const std::string& place, const std::string& field,
                         const nlohmann::ordered_json& value);

// The runtimes of `value` (an array of finite numbers >= 0, each a run's time), refused naming `field`.
std::vector<double> RuntimesField(const ImportedResults& results, const std::string& place, const std::string& field,
                                  const nlohmann::ordered_json& value);

}  // namespace tuner
