// Measurement rows as JSON: the lines of `tuner db export` / `tuner db import` (a record's fields
// under their names, db/query/measurement_fields.h), and a record's fields under the keys of one
// output (`tune --json`, `query --json`, the leaders' summary). params_json and launch_json travel as strings, byte for
// byte, because a candidate's identity in the store is its params_json text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/query/measurement_fields.h"
#include "db/query/records.h"
#include "db/query/store.h"

namespace tuner::db {

nlohmann::ordered_json ToJson(const GpuRecord& gpu);
nlohmann::ordered_json ToJson(const MeasurementRecord& measurement);
nlohmann::ordered_json ToJson(const MeasurementRow& row);  // one export line

// Where one output writes a field of the record: a JSON pointer, so "/time_ms/median" nests.
struct JsonKey {
  MeasurementField::Member field;
  const char* pointer;
};

// The fields `keys` names, as outputs for people and scripts show them (FieldContent): a JSON text
// as its object (null when none), energy null when not measured, a status as its text.
nlohmann::ordered_json RecordJson(const MeasurementRecord& record, const std::vector<JsonKey>& keys);

// Throws std::invalid_argument naming the missing or mistyped field.
MeasurementRow RowFromJson(const nlohmann::json& line);

// A params_json / launch_json text as an object (keys in stored order); null when empty or malformed.
nlohmann::ordered_json ParseStoredJson(const std::string& text);

}  // namespace tuner::db
