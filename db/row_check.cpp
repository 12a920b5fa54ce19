#include "db/row_check.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/number_text.h"
#include "base/utc_time.h"
#include "db/query/imported_gpu.h"

namespace tuner::db {

namespace {

using nlohmann::ordered_json;

// A value of the incoming JSON as JSON writes it (double quotes, escapes), so a message shows it
// as it stands in the file.
std::string JsonQuoted(const std::string& text) {
  return ordered_json(text).dump(-1, ' ', true, ordered_json::error_handler_t::replace);
}

std::string NumberText(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

bool IsIdentifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Letters, digits and `extra`: ids, hashes and versions, which name nothing and hold no path.
bool IsToken(const std::string& text, const std::string& extra, std::size_t max_length) {
  if (text.empty() || text.size() > max_length) return false;
  for (const char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && extra.find(c) == std::string::npos) return false;
  return true;
}

// No control characters (a terminal's escape sequences, line breaks) but those in `allowed`.
bool IsPlainText(const std::string& text, std::size_t max_length, const std::string& allowed = "") {
  if (text.size() > max_length) return false;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 || c == 0x7f) && allowed.find(c) == std::string::npos) return false;
  return true;
}

// The problems of one row, each naming the field; the first one is reported.
class Checker {
 public:
  std::string problem;

  void Require(bool ok, const std::string& field, const std::string& value, const std::string& rule) {
    if (!ok && problem.empty()) problem = field + " is " + value + ": " + rule;
  }
  void Text(const std::string& field, const std::string& value, std::size_t max_length,
            const std::string& allowed = "") {
    const std::string shown = value.size() > 200 ? value.substr(0, 200) + "..." : value;  // one line of message
    Require(IsPlainText(value, max_length, allowed), field, JsonQuoted(shown),
            "text of at most " + std::to_string(max_length) + " bytes without control characters");
  }
  void Time(const std::string& field, const std::string& value) {
    Require(value.empty() || (IsUtcTime(value) && value <= LatestPlausibleUtcTime()), field, JsonQuoted(value),
            "a UTC time as YYYY-MM-DDTHH:MM:SSZ of a day that exists, from 1970 to tomorrow, or empty");
  }
  void NonNegative(const std::string& field, double value) {
    Require(std::isfinite(value) && value >= 0, field, NumberText(value), "a number, 0 or more");
  }
  void Between(const std::string& field, long long value, long long low, long long high) {
    Require(value >= low && value <= high, field, std::to_string(value),
            "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  }
  void OneOf(const std::string& field, const std::string& value, std::initializer_list<const char*> known) {
    std::string names;
    bool found = false;
    for (const char* name : known) {
      found = found || value == name;
      names += (names.empty() ? "" : ", ") + std::string(*name ? name : "\"\"");
    }
    Require(found, field, JsonQuoted(value), "one of " + names);
  }
};

// An imported GPU model: its name only (ImportedGpu), nothing a file from elsewhere cannot say.
void CheckImportedGpu(Checker& c, const GpuRecord& g) {
  c.Require(!g.name.empty(), "gpu.name", "empty", "the GPU's name");
  c.Text("gpu.name", g.name, 256);
  c.Require(g.uuid == ImportedGpu(g.name).uuid, "gpu.uuid", JsonQuoted(g.uuid),
            "an imported GPU's uuid, \"imported:\" and its name " + JsonQuoted(g.name));
  c.Require(g.cc_major == 0 && g.cc_minor == 0 && g.sm_count == 0 && g.memory_bytes == 0, "gpu.cc_major",
            std::to_string(g.cc_major), "0, with cc_minor, sm_count and memory_bytes 0, for an imported GPU");
  c.Text("gpu.driver_version", g.driver_version, 64);
  c.Text("gpu.cuda_version", g.cuda_version, 64);
  c.Between("gpu.sm_clock_mhz", g.sm_clock_mhz, 0, 1 << 20);
}

void CheckGpu(Checker& c, const GpuRecord& g) {
  if (IsImportedGpu(g)) return CheckImportedGpu(c, g);
  c.Require(IsToken(g.uuid, "-_", 128), "gpu.uuid", JsonQuoted(g.uuid), "a GPU's UUID (letters, digits, - and _)");
  c.Require(!g.name.empty(), "gpu.name", "empty", "the GPU's name");
  c.Text("gpu.name", g.name, kMaxGpuNameBytes);
  c.Between("gpu.cc_major", g.cc_major, 1, 99);
  c.Between("gpu.cc_minor", g.cc_minor, 0, 99);
  c.Between("gpu.sm_count", g.sm_count, 1, 1 << 20);
  c.Between("gpu.memory_bytes", g.memory_bytes, 1, 1LL << 60);
  c.Text("gpu.driver_version", g.driver_version, 64);
  c.Text("gpu.cuda_version", g.cuda_version, 64);
  c.Between("gpu.sm_clock_mhz", g.sm_clock_mhz, 0, 1 << 20);
}

void CheckTemplate(Checker& c, const TemplateRecord& t) {
  const std::string name_problem = TemplateNameProblem(t.name);
  if (!name_problem.empty() && c.problem.empty()) c.problem = name_problem;
  c.Require(IsToken(t.hash, "-_", 128), "template.hash", JsonQuoted(t.hash),
            "a template's hash (letters, digits, - and _)");
  c.Time("template.first_seen", t.first_seen);
}

void CheckSweep(Checker& c, const SweepRecord& s, const std::string& size_key) {
  c.Require(s.uid.empty() || IsToken(s.uid, "-_.:", 256), "sweep.uid", JsonQuoted(s.uid),
            "a sweep's id (letters, digits, -, _, . and :), or empty");
  c.Text("sweep.command", s.command, 1 << 16);
  c.Require(s.strategy.empty() || IsIdentifier(s.strategy), "sweep.strategy", JsonQuoted(s.strategy),
            "a strategy's name, or empty");
  c.Between("sweep.budget", s.budget, 0, 1LL << 62);
  c.Require(s.size_key.empty() || s.size_key == size_key, "sweep.size_key", JsonQuoted(s.size_key),
            "the row's size_key " + JsonQuoted(size_key) + ", or empty");
  c.OneOf("sweep.status", s.status, {"", "running", "done", "interrupted", "failed"});
  c.Text("sweep.tool_version", s.tool_version, 64);
  c.Text("sweep.nvrtc_version", s.nvrtc_version, 64);
  c.Time("sweep.started_at", s.started_at);
  c.Time("sweep.ended_at", s.ended_at);
  c.NonNegative("sweep.copy_gbps", s.copy_gbps);
}

// {"TILE":64,"ROWS":4}: an object of whole numbers named by identifiers, as ParamsJson writes it
// (the text is a candidate's identity, so another spelling of the same object is refused too).
void CheckParams(Checker& c, const std::string& text) {
  const ordered_json params = ordered_json::parse(text, nullptr, false);
  bool ok = params.is_object() && params.dump() == text;
  if (ok)
    for (const auto& [name, value] : params.items())
      ok = ok && IsIdentifier(name) && value.is_number_integer() &&
           (!value.is_number_unsigned() || value.get<std::uint64_t>() <= std::uint64_t{1} << 63 >> 1);
  c.Require(ok, "measurement.params_json", JsonQuoted(text.substr(0, 200)),
            "a JSON object of whole numbers named by identifiers, as the tool writes it ({\"TILE\":64,\"ROWS\":4})");
}

bool IsDims(const nlohmann::json& dims) {
  if (!dims.is_array() || dims.size() != 3) return false;
  for (const auto& d : dims)
    if (!d.is_number_integer() || d.get<long long>() < 1) return false;
  return true;
}

// {"block":[64,4,1],"grid":[128,128,1],"shared_bytes":0}, or empty.
void CheckLaunch(Checker& c, const std::string& text) {
  if (text.empty()) return;
  const nlohmann::json launch = nlohmann::json::parse(text, nullptr, false);
  const bool ok = launch.is_object() && launch.size() == 3 && IsDims(launch.value("block", nlohmann::json())) &&
                  IsDims(launch.value("grid", nlohmann::json())) && launch.contains("shared_bytes") &&
                  launch["shared_bytes"].is_number_integer() && launch["shared_bytes"].get<long long>() >= 0;
  c.Require(ok, "measurement.launch_json", JsonQuoted(text.substr(0, 200)),
            "empty or {\"block\":[x,y,z],\"grid\":[x,y,z],\"shared_bytes\":n} with positive dimensions");
}

void CheckTimes(Checker& c, const MeasurementRecord& m) {
  c.NonNegative("measurement.time_ms_median", m.time_ms_median);
  c.NonNegative("measurement.time_ms_min", m.time_ms_min);
  c.NonNegative("measurement.time_ms_max", m.time_ms_max);
  c.NonNegative("measurement.time_ms_spread", m.time_ms_spread);
  if (IsOk(m.status))
    c.Require(m.time_ms_median >= kMinPlausibleMs && m.time_ms_median <= kMaxPlausibleMs,
              "measurement.time_ms_median", NumberText(m.time_ms_median),
              "an ok candidate's time is from " + NumberText(kMinPlausibleMs) + " to " + NumberText(kMaxPlausibleMs) +
                  " ms (1 ns to a day)");
  c.Between("measurement.samples", m.samples, 0, 1 << 30);
  c.NonNegative("measurement.compile_ms", m.compile_ms);
}

void CheckResources(Checker& c, const MeasurementRecord& m) {
  c.Between("measurement.regs_per_thread", m.regs_per_thread, 0, 255);
  c.Between("measurement.smem_bytes", m.smem_bytes, 0, 1LL << 40);
  c.Between("measurement.spill_bytes", m.spill_bytes, 0, 1 << 30);
  c.Between("measurement.blocks_per_sm", m.blocks_per_sm, 0, 1 << 16);
  c.Require(m.occupancy >= 0 && m.occupancy <= 1, "measurement.occupancy", NumberText(m.occupancy), "from 0 to 1");
  c.OneOf("measurement.limiter", m.limiter, {"", "warps", "registers", "shared_memory", "blocks", "barriers"});
}

// A tie's member ranks at a positive time, its fastest member's median at most; in no tie, 0 and 0.
void CheckTieAndToolchain(Checker& c, const MeasurementRecord& m) {
  c.NonNegative("measurement.tie_ms", m.tie_ms);
  c.Between("measurement.tie_rank", m.tie_rank, 0, 1 << 16);
  c.Require((m.tie_rank == 0) == (m.tie_ms == 0), "measurement.tie_rank", std::to_string(m.tie_rank),
            "0 with tie_ms 0 (in no tie), or 1 and up with tie_ms above 0 (a tie's member)");
  c.Require(m.tie_ms <= m.time_ms_median, "measurement.tie_ms", NumberText(m.tie_ms),
            "at most the member's own median (the tie's fastest member's)");
  c.Text("measurement.toolchain", m.toolchain, 256);
  c.Text("measurement.revalidation", m.revalidation, 1 << 16, "\t");
}

void CheckMeasurement(Checker& c, const MeasurementRecord& m) {
  CheckParams(c, m.params_json);
  CheckLaunch(c, m.launch_json);
  c.Text("measurement.reason", m.reason, 1 << 16, "\t");
  CheckTimes(c, m);
  c.NonNegative("measurement.perf_value", m.perf_value);
  c.Text("measurement.perf_unit", m.perf_unit, 32);
  CheckResources(c, m);
  c.Text("measurement.error_text", m.error_text, 1 << 22, "\t\n\r");
  c.Time("measurement.measured_at", m.measured_at);
  c.Between("measurement.worker_kills", m.worker_kills, 0, 2);
  c.OneOf("measurement.timing_mode", m.timing_mode, {"isolated", "back_to_back", "graph"});
  c.Require(m.counters_json.empty() || nlohmann::json::parse(m.counters_json, nullptr, false).is_object(),
            "measurement.counters_json", JsonQuoted(m.counters_json.substr(0, 200)), "empty or a JSON object");
  c.NonNegative("measurement.energy_j", m.energy_j);
  c.NonNegative("measurement.power_w", m.power_w);
  c.NonNegative("measurement.energy_launch_ms", m.energy_launch_ms);
  c.NonNegative("measurement.perf_per_joule", m.perf_per_joule);
  CheckTieAndToolchain(c, m);
}

}  // namespace

std::string RowProblem(const MeasurementRow& row) {
  Checker c;
  CheckGpu(c, row.gpu);
  CheckTemplate(c, row.templ);
  c.Require(!ParseSizeKey(row.size_key).empty() && SizeKey(ParseSizeKey(row.size_key)) == row.size_key, "size_key",
            JsonQuoted(row.size_key), "sizes from 1 to 2^53 joined by 'x' (\"8192x8192\")");
  CheckSweep(c, row.sweep, row.size_key);
  CheckMeasurement(c, row.measurement);
  return c.problem;
}

std::string TemplateNameProblem(const std::string& name) {
  if (IsIdentifier(name) && name.size() <= 128) return "";
  return "template.name is " + JsonQuoted(name) +
         ": a template's name (letters, digits and _, not starting with a digit, at most 128)";
}

std::vector<std::string> ParamNames(const std::string& params_json) {
  std::vector<std::string> names;
  const ordered_json params = ordered_json::parse(params_json);  // must outlive items()
  for (const auto& [name, value] : params.items()) names.push_back(name);
  return names;
}

void VersionShapes::Expect(const std::string& name, const std::string& hash, std::vector<std::string> params,
                           std::size_t sizes) {
  shapes_.emplace(std::make_pair(name, hash), Shape{std::move(params), sizes});
}

namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return "(" + text + ")";
}

}  // namespace

std::string VersionShapes::Check(const MeasurementRow& row) {
  Shape shape{ParamNames(row.measurement.params_json), ParseSizeKey(row.size_key).size()};
  const auto [known, added] = shapes_.emplace(std::make_pair(row.templ.name, row.templ.hash), shape);
  if (added) return "";
  const std::string version = "template " + row.templ.name + " (hash " + row.templ.hash + ")";
  if (known->second.params != shape.params)
    return "measurement.params_json names " + JoinNames(shape.params) + ", but " + version + " has the parameters " +
           JoinNames(known->second.params);
  if (known->second.sizes != shape.sizes)
    return "size_key " + JsonQuoted(row.size_key) + " has " + std::to_string(shape.sizes) + " size(s), but " + version +
           " has " + std::to_string(known->second.sizes);
  return "";
}

}  // namespace tuner::db
