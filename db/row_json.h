// Measurement rows as JSON: the lines of `tuner db export` / `tuner db import`, and the pieces of
// `tuner query --json`. params_json and launch_json travel as strings, byte for byte, because a
// candidate's identity in the store is its params_json text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "db/query/records.h"
#include "db/query/store.h"

namespace tuner::db {

nlohmann::ordered_json ToJson(const GpuRecord& gpu);
nlohmann::ordered_json ToJson(const MeasurementRecord& measurement);
nlohmann::ordered_json ToJson(const MeasurementRow& row);  // one export line

// Throws std::invalid_argument naming the missing or mistyped field.
MeasurementRow RowFromJson(const nlohmann::json& line);

// A params_json / launch_json text as an object (keys in stored order); null when empty or malformed.
nlohmann::ordered_json ParseStoredJson(const std::string& text);

}  // namespace tuner::db
