#include "reports/csv_report.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <vector>

#include "db/query/measurement_fields.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

std::string Number(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

// One cell of a row of the run.
using Cell = std::function<std::string(const Run&, const db::MeasurementRow&)>;

// Whether the run's ceiling applies to the row: an `ok` candidate in the ceiling's unit.
bool HasCeiling(const Run& run, const db::MeasurementRow& row) {
  return IsOk(row.measurement.status) && run.ceiling.known() && row.measurement.perf_unit == run.ceiling.unit;
}

// The columns that are not a field of the measurement record.
const std::map<std::string, Cell>& RowColumns() {
  using Row = db::MeasurementRow;
  static const std::map<std::string, Cell> columns = {
      {"kernel", [](const Run&, const Row& row) { return row.templ.name; }},
      {"template_hash", [](const Run&, const Row& row) { return row.templ.hash; }},
      {"stale", [](const Run&, const Row& row) { return std::string(row.stale ? "1" : "0"); }},
      {"gpu_name", [](const Run&, const Row& row) { return row.gpu.name; }},
      {"gpu_uuid", [](const Run&, const Row& row) { return row.gpu.uuid; }},
      {"arch", [](const Run&, const Row& row) { return row.gpu.Arch(); }},
      {"sm_count", [](const Run&, const Row& row) { return std::to_string(row.gpu.sm_count); }},
      {"driver_version", [](const Run&, const Row& row) { return row.gpu.driver_version; }},
      {"cuda_version", [](const Run&, const Row& row) { return row.gpu.cuda_version; }},
      {"size", [](const Run&, const Row& row) { return row.size_key; }},
      {"ceiling_value",
       [](const Run& run, const Row& row) { return HasCeiling(run, row) ? Number(run.ceiling.value) : ""; }},
      {"ceiling_fraction",
       [](const Run& run, const Row& row) {
         return HasCeiling(run, row) ? Number(row.measurement.perf_value / run.ceiling.value) : "";
       }},
      {"sweep_uid", [](const Run&, const Row& row) { return row.sweep.uid; }},
      {"sweep_started_at", [](const Run&, const Row& row) { return row.sweep.started_at; }},
      {"tool_version", [](const Run&, const Row& row) { return row.sweep.tool_version; }},
      {"nvrtc_version", [](const Run&, const Row& row) { return row.sweep.nvrtc_version; }},
  };
  return columns;
}

// The CSV's columns in order, a contract of the scripts that read it: a column of RowColumns or a
// field of the measurement record by its name (db/query/measurement_fields.h). The record's fields
// not named here follow at the end in the table's order, so that every field reaches the CSV.
const char* const kLayout[] = {"kernel",        "template_hash",    "stale",
                               "gpu_name",      "gpu_uuid",         "arch",
                               "sm_count",      "driver_version",   "cuda_version",
                               "size",          "params_json",      "launch_json",
                               "status",        "reason",           "time_ms_median",
                               "time_ms_min",   "time_ms_max",      "time_ms_spread",
                               "samples",       "perf_value",       "perf_unit",
                               "ceiling_value", "ceiling_fraction", "regs_per_thread",
                               "smem_bytes",    "spill_bytes",      "blocks_per_sm",
                               "occupancy",     "limiter",          "compile_ms",
                               "measured_at",   "sweep_uid",        "sweep_started_at",
                               "tool_version",  "nvrtc_version",    "error_text"};

std::string Text(const std::string& value) { return value; }
std::string Text(int value) { return std::to_string(value); }
std::string Text(std::int64_t value) { return std::to_string(value); }
std::string Text(double value) { return Number(value); }
std::string Text(CandidateStatus value) { return ToText(value); }

Cell FieldCell(const db::MeasurementField& field) {
  return [&field](const Run&, const db::MeasurementRow& row) {
    std::string text;
    db::VisitField(field, row.measurement, [&](const auto& value) { text = Text(value); });
    return text;
  };
}

struct Column {
  std::string header;
  Cell cell;
};

std::vector<Column> Columns() {
  std::vector<Column> columns;
  for (const char* name : kLayout) {
    const auto row_column = RowColumns().find(name);
    columns.push_back({name, row_column != RowColumns().end() ? row_column->second : FieldCell(db::FieldNamed(name))});
  }
  for (const db::MeasurementField& field : db::MeasurementFields())
    if (std::find(std::begin(kLayout), std::end(kLayout), std::string(field.name)) == std::end(kLayout))
      columns.push_back({field.name, FieldCell(field)});
  return columns;
}

std::string Line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + CsvField(fields[i]);
  return line + "\r\n";
}

}  // namespace

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string RenderCsv(const ReportData& data) {
  const std::vector<Column> columns = Columns();
  std::vector<std::string> headers;
  for (const Column& column : columns) headers.push_back(column.header);
  std::string out = Line(headers);
  for (const KernelReport& kernel : data.kernels)
    for (const Run& run : kernel.runs)
      for (const auto* rows : {&run.rows, &run.set_aside})
        for (const db::MeasurementRow& row : *rows) {
          std::vector<std::string> cells;
          for (const Column& column : columns) cells.push_back(column.cell(run, row));
          out += Line(cells);
        }
  return out;
}

}  // namespace tuner::report
