#include "db/query/store_columns.h"

#include <ctime>
#include <functional>
#include <stdexcept>

#include "base/errors.h"
#include "base/utc_time.h"

namespace tuner::db {

std::string NowUtc() { return UtcTimeText(std::time(nullptr)); }

std::vector<MeasurementRecord> ReadMeasurementsWithIds(sql::Statement& select) {
  std::vector<MeasurementRecord> records;
  while (select.Step()) {
    records.push_back(ReadMeasurement(select, 0));
    records.back().id = select.Int64(static_cast<int>(MeasurementFields().size()));
  }
  return records;
}

CandidateStatus ReadStatus(const std::string& text) {
  try {
    return CandidateStatusFromText(text);
  } catch (const std::invalid_argument& e) {
    throw BadDatabaseError(std::string("a stored measurement has an ") + e.what());
  }
}

std::string MeasurementColumnList(const std::function<std::string(const MeasurementField&)>& expression) {
  std::string list;
  for (const MeasurementField& field : MeasurementFields()) list += (list.empty() ? "" : ", ") + expression(field);
  return list;
}

std::string MeasurementColumns() {
  return MeasurementColumnList([](const MeasurementField& field) { return std::string(field.name); });
}

namespace {

void BindValue(sql::Statement& s, int index, const std::string& value) { s.Bind(index, value); }
void BindValue(sql::Statement& s, int index, int value) { s.Bind(index, value); }
void BindValue(sql::Statement& s, int index, std::int64_t value) { s.Bind(index, value); }
void BindValue(sql::Statement& s, int index, double value) { s.Bind(index, value); }
void BindValue(sql::Statement& s, int index, CandidateStatus value) { s.Bind(index, ToText(value)); }

void ReadValue(const sql::Statement& s, int column, std::string* value) { *value = s.Text(column); }
void ReadValue(const sql::Statement& s, int column, int* value) { *value = s.Int(column); }
void ReadValue(const sql::Statement& s, int column, std::int64_t* value) { *value = s.Int64(column); }
void ReadValue(const sql::Statement& s, int column, double* value) { *value = s.Double(column); }
void ReadValue(const sql::Statement& s, int column, CandidateStatus* value) { *value = ReadStatus(s.Text(column)); }

}  // namespace

void BindMeasurement(sql::Statement& s, int first, const MeasurementRecord& measurement) {
  MeasurementRecord m = measurement;
  if (m.measured_at.empty()) m.measured_at = NowUtc();
  int index = first;
  for (const MeasurementField& field : MeasurementFields())
    VisitField(field, m, [&](const auto& value) { BindValue(s, index++, value); });
}

MeasurementRecord ReadMeasurement(const sql::Statement& s, int first) {
  MeasurementRecord m;
  int column = first;
  for (const MeasurementField& field : MeasurementFields())
    VisitField(field, m, [&](auto& value) { ReadValue(s, column++, &value); });
  return m;
}

// Upsert of one candidate; with `only_if_newer` an existing row is replaced only by a later one.
std::string UpsertMeasurementSql(bool only_if_newer) {
  int parameter = 5;
  const std::string values =
      MeasurementColumnList([&](const MeasurementField&) { return "?" + std::to_string(parameter++); });
  std::string sql = "INSERT INTO measurements (sweep_id, gpu_id, template_id, size_key, " + MeasurementColumns() +
                    ") VALUES (?1, ?2, ?3, ?4, " + values +
                    ") ON CONFLICT (gpu_id, template_id, size_key, timing_mode, params_json) DO UPDATE SET sweep_id = "
                    "excluded.sweep_id";
  for (const MeasurementField& field : MeasurementFields())
    if (field.member != MeasurementField::Member(&MeasurementRecord::params_json) &&
        field.member != MeasurementField::Member(&MeasurementRecord::timing_mode))  // the key
      sql += std::string(", ") + field.name + " = excluded." + field.name;
  if (only_if_newer) sql += " WHERE excluded.measured_at > measurements.measured_at";
  return sql;
}

// Joined rows: measurement, GPU, template, sweep. %SOURCE% is the table or subquery named m.
namespace {

// %COLUMNS% stands for the measurement's columns.
const char* const kRowSelect =
    "SELECT m.id, m.sweep_id, g.uuid, g.name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes, "
    "g.driver_version, g.cuda_version, t.name, t.hash, t.first_seen, s.uid, s.command, s.strategy, "
    "s.budget, s.size_key, s.status, s.tool_version, s.nvrtc_version, s.started_at, s.ended_at, "
    "g.sm_clock_mhz, s.copy_gbps, m.size_key, %COLUMNS% FROM "
    "%SOURCE% m JOIN gpus g ON g.id = m.gpu_id "
    "JOIN templates t ON t.id = m.template_id JOIN sweeps s ON s.id = m.sweep_id ";

}  // namespace

std::string RowSelect(const std::string& source) {
  std::string sql = kRowSelect;
  sql.replace(sql.find("%SOURCE%"), 8, source);
  const std::string columns =
      MeasurementColumnList([](const MeasurementField& field) { return std::string("m.") + field.name; });
  sql.replace(sql.find("%COLUMNS%"), 9, columns);
  return sql;
}

MeasurementRow ReadRow(const sql::Statement& s) {
  MeasurementRow row;
  row.sweep_id = s.Int64(1);
  row.gpu = {{s.Text(3), s.Int(4), s.Int(5), s.Int(6), s.Int64(7), s.Text(2)}, s.Text(8), s.Text(9), 0};
  row.templ = {s.Text(10), s.Text(11), s.Text(12)};
  SweepRecord& w = row.sweep;
  w.uid = s.Text(13);
  w.command = s.Text(14);
  w.strategy = s.Text(15);
  w.budget = s.Int64(16);
  w.size_key = s.Text(17);
  w.status = s.Text(18);
  w.tool_version = s.Text(19);
  w.nvrtc_version = s.Text(20);
  w.started_at = s.Text(21);
  w.ended_at = s.Text(22);
  row.gpu.sm_clock_mhz = s.Int(23);
  w.copy_gbps = s.Double(24);
  row.size_key = s.Text(25);
  row.measurement = ReadMeasurement(s, 26);
  row.measurement.id = s.Int64(0);
  return row;
}

}  // namespace tuner::db
