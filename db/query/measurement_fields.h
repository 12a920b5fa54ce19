// The fields of a measurement record (records.h), listed once: each with its name, which is the
// store's column, the export's key and the CSV's header, the record's member it reads and writes,
// and the schema version that added its column. The store's columns, binding and reading, the
// export and import, the CSV report and the JSON of `tune` and `query` are made from this table.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "db/query/records.h"

namespace tuner::db {

// What outputs for people and scripts (not the store, not the export) do with a field's value.
enum class FieldContent {
  kPlain,
  kJsonText,  // a JSON object as text (params, launch, counters): written as the object, null when none
  kEnergy,    // measured with energy_j only: null when energy_j is 0 (not measured)
};

struct MeasurementField {
  using Member =
      std::variant<std::string MeasurementRecord::*, int MeasurementRecord::*, std::int64_t MeasurementRecord::*,
                   double MeasurementRecord::*, CandidateStatus MeasurementRecord::*>;
  const char* name;
  Member member;
  int since_schema = 1;  // the schema version whose migration added the column (db/query/schema.cpp)
  FieldContent content = FieldContent::kPlain;
};

// Every field but the store's id, in MeasurementRecord's order.
const std::vector<MeasurementField>& MeasurementFields();

// The field of `member`; std::logic_error when the table lacks it (a programming error).
const MeasurementField& FieldOf(const MeasurementField::Member& member);

// The field named `name`; std::logic_error naming it when there is none (a programming error).
const MeasurementField& FieldNamed(const std::string& name);

// The column's SQLite type: "TEXT" (a status is stored as its text), "INTEGER" or "REAL".
const char* SqlType(const MeasurementField& field);

// Calls fn with the field's member of `record` (a const one when `record` is const): a
// std::string, int, std::int64_t, double or CandidateStatus reference.
template <class Record, class Fn>
void VisitField(const MeasurementField& field, Record& record, Fn&& fn) {
  std::visit([&](auto member) { fn(record.*member); }, field.member);
}

}  // namespace tuner::db
