// Rows as JSON (db/row_json.h): every field of a measurement through an export line and back, and a
// record's fields under the keys of one output.
#include "db/row_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "db_test_util.h"

namespace tuner::db {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using testing::DifferingFields;
using testing::EveryFieldSet;
using R = MeasurementRecord;

MeasurementRow EveryFieldRow() {
  MeasurementRow row;
  row.gpu = testing::SampleGpu();
  row.templ = {"transpose", "abc", "2026-11-22T00:00:00Z"};
  row.sweep = testing::SampleSweep();
  row.size_key = row.sweep.size_key;
  row.measurement = EveryFieldSet();
  return row;
}

TEST(RowJson, EveryFieldOfAMeasurementRoundTripsThroughAnExportLine) {
  const MeasurementRow row = EveryFieldRow();
  const ordered_json line = ToJson(row);
  std::vector<std::string> keys;
  for (const auto& item : line.at("measurement").items()) keys.push_back(item.key());
  std::vector<std::string> names;
  for (const MeasurementField& field : MeasurementFields()) names.push_back(field.name);
  EXPECT_EQ(keys, names);
  const MeasurementRow back = RowFromJson(json::parse(line.dump()));
  EXPECT_EQ(DifferingFields(back.measurement, row.measurement), std::vector<std::string>());
}

// Exports began with schema 2: a field a later schema added may be absent, one of schema 2 not.
TEST(RowJson, OnlyFieldsAddedAfterTheFirstExportMayBeAbsent) {
  json line = json::parse(ToJson(EveryFieldRow()).dump());
  for (const char* later :
       {"worker_kills", "counters_json", "energy_j", "power_w", "energy_launch_ms", "perf_per_joule"})
    line["measurement"].erase(later);
  EXPECT_EQ(RowFromJson(line).measurement.energy_j, 0);
  line["measurement"].erase("spill_bytes");
  try {
    RowFromJson(line);
    ADD_FAILURE() << "a line without spill_bytes was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "missing field 'measurement.spill_bytes'");
  }
}

TEST(RowJson, RecordJsonWritesEachFieldWhereItsPointerSays) {
  const R m = EveryFieldSet();
  const ordered_json out = RecordJson(m, {{&R::params_json, "/params"},
                                          {&R::status, "/status"},
                                          {&R::time_ms_median, "/time_ms/median"},
                                          {&R::samples, "/time_ms/samples"},
                                          {&R::energy_j, "/energy"}});
  EXPECT_EQ(out.dump(), R"({"params":{"params_json":1},"status":"wrong_result","time_ms":{"median":7.5,"samples":13},)"
                        R"("energy":34.5})");
}

TEST(RowJson, RecordJsonShowsWhatWasNotMeasuredAsNull) {
  R m;
  m.params_json = "not json";
  m.power_w = 300;  // without energy_j: not measured
  const ordered_json out =
      RecordJson(m, {{&R::params_json, "/params"}, {&R::counters_json, "/counters"}, {&R::power_w, "/power_w"}});
  EXPECT_EQ(out.dump(), R"({"params":null,"counters":null,"power_w":null})");
}

}  // namespace
}  // namespace tuner::db
