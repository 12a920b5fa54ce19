#include "db/row_json.h"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "db/query/measurement_fields.h"

namespace tuner::db {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A JSON value as T, or why not: a whole number must be one and fit T (nlohmann's get<int> would
// wrap 2^70 to -2147483648), a real number must be a number, a text a string.
template <typename T>
std::string Convert(const json& value, T* out) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!value.is_string()) return "must be a string";
  } else if constexpr (std::is_integral_v<T>) {
    if (!value.is_number_integer()) return "must be a whole number";
    const bool fits = value.is_number_unsigned()
                          ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                          : value.get<std::int64_t>() >= std::numeric_limits<T>::min() &&
                                value.get<std::int64_t>() <= std::numeric_limits<T>::max();
    if (!fits) return "is " + value.dump() + ", out of range (" + std::to_string(std::numeric_limits<T>::min()) +
                      " to " + std::to_string(std::numeric_limits<T>::max()) + ")";
  } else if (!value.is_number()) {
    return "must be a number";
  }
  *out = value.get<T>();
  return "";
}

// Reads one field, naming it ("measurement.samples") when missing or of the wrong type or range.
template <typename T>
void Get(const json& object, const std::string& record, const char* key, T* value) {
  const std::string field = record.empty() ? key : record + "." + key;
  const auto found = object.find(key);
  if (found == object.end()) throw std::invalid_argument("missing field '" + field + "'");
  const std::string problem = Convert(*found, value);
  if (!problem.empty()) throw std::invalid_argument("field '" + field + "' " + problem);
}

const json& Object(const json& parent, const char* key) {
  const auto found = parent.find(key);
  if (found == parent.end() || !found->is_object())
    throw std::invalid_argument(std::string("missing object '") + key + "'");
  return *found;
}

// A field that exports made before it existed lack: read only when present (else the member keeps
// what it had), always written.
enum class Presence { kAlways, kAddedLater };

// Each record's fields in the order of an export line: the one list that ToJson writes and
// RowFromJson reads. `field(key, member)` or `field(key, member, Presence::kAddedLater)`.
template <class Gpu, class Field>
void GpuFields(Gpu& g, Field& field) {
  field("uuid", g.uuid);
  field("name", g.name);
  field("cc_major", g.cc_major);
  field("cc_minor", g.cc_minor);
  field("sm_count", g.sm_count);
  field("memory_bytes", g.memory_bytes);
  field("driver_version", g.driver_version);
  field("cuda_version", g.cuda_version);
  field("sm_clock_mhz", g.sm_clock_mhz, Presence::kAddedLater);  // schema 3
}

template <class Template, class Field>
void TemplateFields(Template& t, Field& field) {
  field("name", t.name);
  field("hash", t.hash);
  field("first_seen", t.first_seen);
}

template <class Sweep, class Field>
void SweepFields(Sweep& s, Field& field) {
  field("uid", s.uid);
  field("command", s.command);
  field("strategy", s.strategy);
  field("budget", s.budget);
  field("size_key", s.size_key);
  field("status", s.status);
  field("tool_version", s.tool_version);
  field("nvrtc_version", s.nvrtc_version);
  field("started_at", s.started_at);
  field("ended_at", s.ended_at);
  field("copy_gbps", s.copy_gbps, Presence::kAddedLater);  // schema 3
}

// Exports began with schema 2: a field that a later schema added may be absent from a line.
constexpr int kFirstExportSchema = 2;

// The measurement's fields in the table's order (db/query/measurement_fields.h), as GpuFields.
template <class Measurement, class Field>
void EachMeasurementField(Measurement& m, Field& field) {
  for (const MeasurementField& f : MeasurementFields()) {
    const Presence presence = f.since_schema > kFirstExportSchema ? Presence::kAddedLater : Presence::kAlways;
    VisitField(f, m, [&](auto& value) { field(f.name, value, presence); });
  }
}

// Writes the fields it is given into one object, in their order; a status as its text.
struct FieldWriter {
  ordered_json object = ordered_json::object();

  template <class T>
  void operator()(const char* key, const T& value, Presence = Presence::kAlways) {
    if constexpr (std::is_same_v<T, CandidateStatus>)
      object[key] = ToText(value);
    else
      object[key] = value;
  }
};

// Reads the fields it is given from one object; a status's text is kept for the caller to check.
struct FieldReader {
  const json& object;
  std::string record;  // "gpu", "measurement", ...: the prefix of a field's name in messages
  std::string status_text;

  template <class T>
  void operator()(const char* key, T& value, Presence presence = Presence::kAlways) {
    if (presence == Presence::kAddedLater && !object.contains(key)) return;
    if constexpr (std::is_same_v<T, CandidateStatus>)
      Get(object, record, key, &status_text);
    else
      Get(object, record, key, &value);
  }
};

}  // namespace

ordered_json ToJson(const GpuRecord& g) {
  FieldWriter out;
  GpuFields(g, out);
  return out.object;
}

ordered_json ToJson(const MeasurementRecord& m) {
  FieldWriter out;
  EachMeasurementField(m, out);
  return out.object;
}

ordered_json ToJson(const MeasurementRow& row) {
  FieldWriter templ, sweep;
  TemplateFields(row.templ, templ);
  SweepFields(row.sweep, sweep);
  return {{"gpu", ToJson(row.gpu)},
          {"template", templ.object},
          {"sweep", sweep.object},
          {"size_key", row.size_key},
          {"measurement", ToJson(row.measurement)}};
}

MeasurementRow RowFromJson(const json& line) {
  MeasurementRow row;
  FieldReader gpu{Object(line, "gpu"), "gpu", ""};
  GpuFields(row.gpu, gpu);
  FieldReader templ{Object(line, "template"), "template", ""};
  TemplateFields(row.templ, templ);
  FieldReader sweep{Object(line, "sweep"), "sweep", ""};
  SweepFields(row.sweep, sweep);
  Get(line, "", "size_key", &row.size_key);
  const json& m = Object(line, "measurement");
  FieldReader measurement{m, "measurement", ""};
  MeasurementRecord& r = row.measurement;
  EachMeasurementField(r, measurement);
  const std::string& status = measurement.status_text;
  if (!status.empty()) r.status = CandidateStatusFromText(status);
  // Absent in exports of schema 3, where a fault or timeout had killed its worker once.
  if (!m.contains("worker_kills")) r.worker_kills = KillsWorker(r.status) ? 1 : 0;
  if (!r.counters_json.empty() && !json::parse(r.counters_json, nullptr, false).is_object())
    throw std::invalid_argument("measurement.counters_json must be empty or a JSON object as a string");
  if (row.gpu.uuid.empty() || row.templ.name.empty() || r.params_json.empty() || status.empty())
    throw std::invalid_argument("gpu.uuid, template.name, measurement.params_json and status must not be empty");
  return row;
}

namespace {

// A field's value in an output for people and scripts (FieldContent).
ordered_json ViewValue(const MeasurementField& field, const MeasurementRecord& record) {
  if (field.content == FieldContent::kEnergy && record.energy_j <= 0) return nullptr;
  ordered_json value;
  VisitField(field, record, [&](const auto& member) {
    if constexpr (std::is_same_v<std::decay_t<decltype(member)>, CandidateStatus>)
      value = ToText(member);
    else
      value = member;
  });
  if (field.content != FieldContent::kJsonText) return value;
  const ordered_json object = ParseStoredJson(value.get<std::string>());
  return object.is_object() ? object : ordered_json();
}

}  // namespace

ordered_json RecordJson(const MeasurementRecord& record, const std::vector<JsonKey>& keys) {
  ordered_json out = ordered_json::object();
  for (const JsonKey& key : keys) out[ordered_json::json_pointer(key.pointer)] = ViewValue(FieldOf(key.field), record);
  return out;
}

ordered_json ParseStoredJson(const std::string& text) {
  if (text.empty()) return nullptr;
  try {
    return ordered_json::parse(text);
  } catch (const json::exception&) {
    return nullptr;
  }
}

}  // namespace tuner::db
