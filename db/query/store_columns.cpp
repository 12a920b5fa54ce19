#include "db/query/store_columns.h"

#include <ctime>
#include <stdexcept>

#include "db/query/errors.h"

namespace tuner::db {

std::string NowUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::vector<MeasurementRecord> ReadMeasurementsWithIds(sql::Statement& select) {
  std::vector<MeasurementRecord> records;
  while (select.Step()) {
    records.push_back(ReadMeasurement(select, 0));
    records.back().id = select.Int64(kMeasurementColumnCount);
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

// The 26 measurement columns in MeasurementRecord's order, for INSERT and SELECT alike.
const char* const kMeasurementColumns =
    "params_json, launch_json, status, reason, time_ms_median, time_ms_min, time_ms_max, "
    "time_ms_spread, samples, perf_value, perf_unit, regs_per_thread, smem_bytes, spill_bytes, "
    "blocks_per_sm, occupancy, limiter, compile_ms, error_text, measured_at, worker_kills, "
    "counters_json, energy_j, power_w, energy_launch_ms, perf_per_joule";

void BindMeasurement(sql::Statement& s, int first, const MeasurementRecord& m) {
  s.Bind(first, m.params_json).Bind(first + 1, m.launch_json).Bind(first + 2, ToText(m.status));
  s.Bind(first + 3, m.reason).Bind(first + 4, m.time_ms_median).Bind(first + 5, m.time_ms_min);
  s.Bind(first + 6, m.time_ms_max).Bind(first + 7, m.time_ms_spread).Bind(first + 8, m.samples);
  s.Bind(first + 9, m.perf_value).Bind(first + 10, m.perf_unit).Bind(first + 11, m.regs_per_thread);
  s.Bind(first + 12, m.smem_bytes).Bind(first + 13, m.spill_bytes).Bind(first + 14, m.blocks_per_sm);
  s.Bind(first + 15, m.occupancy).Bind(first + 16, m.limiter).Bind(first + 17, m.compile_ms);
  s.Bind(first + 18, m.error_text).Bind(first + 19, m.measured_at.empty() ? NowUtc() : m.measured_at);
  s.Bind(first + 20, m.worker_kills).Bind(first + 21, m.counters_json).Bind(first + 22, m.energy_j);
  s.Bind(first + 23, m.power_w).Bind(first + 24, m.energy_launch_ms).Bind(first + 25, m.perf_per_joule);
}

MeasurementRecord ReadMeasurement(const sql::Statement& s, int first) {
  MeasurementRecord m;
  m.params_json = s.Text(first);
  m.launch_json = s.Text(first + 1);
  m.status = ReadStatus(s.Text(first + 2));
  m.reason = s.Text(first + 3);
  m.time_ms_median = s.Double(first + 4);
  m.time_ms_min = s.Double(first + 5);
  m.time_ms_max = s.Double(first + 6);
  m.time_ms_spread = s.Double(first + 7);
  m.samples = s.Int(first + 8);
  m.perf_value = s.Double(first + 9);
  m.perf_unit = s.Text(first + 10);
  m.regs_per_thread = s.Int(first + 11);
  m.smem_bytes = s.Int64(first + 12);
  m.spill_bytes = s.Int(first + 13);
  m.blocks_per_sm = s.Int(first + 14);
  m.occupancy = s.Double(first + 15);
  m.limiter = s.Text(first + 16);
  m.compile_ms = s.Double(first + 17);
  m.error_text = s.Text(first + 18);
  m.measured_at = s.Text(first + 19);
  m.worker_kills = s.Int(first + 20);
  m.counters_json = s.Text(first + 21);
  m.energy_j = s.Double(first + 22);
  m.power_w = s.Double(first + 23);
  m.energy_launch_ms = s.Double(first + 24);
  m.perf_per_joule = s.Double(first + 25);
  return m;
}

// Upsert of one candidate; with `only_if_newer` an existing row is replaced only by a later one.
std::string UpsertMeasurementSql(bool only_if_newer) {
  std::string sql = std::string("INSERT INTO measurements (sweep_id, gpu_id, template_id, size_key, ") +
                    kMeasurementColumns + ") VALUES (?1, ?2, ?3, ?4";
  for (int i = 0; i < kMeasurementColumnCount; ++i) sql += ", ?" + std::to_string(5 + i);
  sql += ") ON CONFLICT (gpu_id, template_id, size_key, params_json) DO UPDATE SET sweep_id = excluded.sweep_id";
  const std::string columns = kMeasurementColumns;
  std::size_t start = columns.find(',') + 2;  // every column but params_json, the key
  while (start < columns.size()) {
    std::size_t end = columns.find(',', start);
    if (end == std::string::npos) end = columns.size();
    const std::string column = columns.substr(start, end - start);
    sql += ", " + column + " = excluded." + column;
    start = end + 2;
  }
  if (only_if_newer) sql += " WHERE excluded.measured_at > measurements.measured_at";
  return sql;
}

// Joined rows: measurement, GPU, template, sweep. %SOURCE% is the table or subquery named m.
namespace {

const char* const kRowSelect =
    "SELECT m.id, m.sweep_id, g.uuid, g.name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes, "
    "g.driver_version, g.cuda_version, t.name, t.hash, t.first_seen, s.uid, s.command, s.strategy, "
    "s.budget, s.size_key, s.status, s.tool_version, s.nvrtc_version, s.started_at, s.ended_at, "
    "g.sm_clock_mhz, s.copy_gbps, "
    "m.size_key, m.params_json, m.launch_json, m.status, m.reason, m.time_ms_median, m.time_ms_min, "
    "m.time_ms_max, m.time_ms_spread, m.samples, m.perf_value, m.perf_unit, m.regs_per_thread, "
    "m.smem_bytes, m.spill_bytes, m.blocks_per_sm, m.occupancy, m.limiter, m.compile_ms, m.error_text, "
    "m.measured_at, m.worker_kills, m.counters_json, m.energy_j, m.power_w, m.energy_launch_ms, m.perf_per_joule FROM "
    "%SOURCE% m JOIN gpus g ON g.id = m.gpu_id "
    "JOIN templates t ON t.id = m.template_id JOIN sweeps s ON s.id = m.sweep_id ";

}  // namespace

std::string RowSelect(const std::string& source) {
  std::string sql = kRowSelect;
  sql.replace(sql.find("%SOURCE%"), 8, source);
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
