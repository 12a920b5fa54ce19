#include "db/store.h"

#include <ctime>
#include <map>
#include <random>
#include <stdexcept>

#include "db/schema.h"
#include "db/sqlite.h"

namespace tuner::db {

namespace {

std::string NowUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// Fresh entropy on every call: a generator kept in memory would repeat itself in forked children.
std::string NewUid() {
  std::random_device random;
  char text[40];
  std::snprintf(text, sizeof text, "%08x%08x%08x%08x", random(), random(), random(), random());
  return text;
}

// The 20 measurement columns in MeasurementRecord's order, for INSERT and SELECT alike.
const char* kMeasurementColumns =
    "params_json, launch_json, status, reason, time_ms_median, time_ms_min, time_ms_max, "
    "time_ms_spread, samples, perf_value, perf_unit, regs_per_thread, smem_bytes, spill_bytes, "
    "blocks_per_sm, occupancy, limiter, compile_ms, error_text, measured_at";
constexpr int kMeasurementColumnCount = 20;

void BindMeasurement(sql::Statement& s, int first, const MeasurementRecord& m) {
  s.Bind(first, m.params_json).Bind(first + 1, m.launch_json).Bind(first + 2, m.status);
  s.Bind(first + 3, m.reason).Bind(first + 4, m.time_ms_median).Bind(first + 5, m.time_ms_min);
  s.Bind(first + 6, m.time_ms_max).Bind(first + 7, m.time_ms_spread).Bind(first + 8, m.samples);
  s.Bind(first + 9, m.perf_value).Bind(first + 10, m.perf_unit).Bind(first + 11, m.regs_per_thread);
  s.Bind(first + 12, m.smem_bytes).Bind(first + 13, m.spill_bytes).Bind(first + 14, m.blocks_per_sm);
  s.Bind(first + 15, m.occupancy).Bind(first + 16, m.limiter).Bind(first + 17, m.compile_ms);
  s.Bind(first + 18, m.error_text).Bind(first + 19, m.measured_at.empty() ? NowUtc() : m.measured_at);
}

MeasurementRecord ReadMeasurement(const sql::Statement& s, int first) {
  MeasurementRecord m;
  m.params_json = s.Text(first);
  m.launch_json = s.Text(first + 1);
  m.status = s.Text(first + 2);
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
const char* kRowSelect =
    "SELECT m.id, m.sweep_id, g.uuid, g.name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes, "
    "g.driver_version, g.cuda_version, t.name, t.hash, t.first_seen, s.uid, s.command, s.strategy, "
    "s.budget, s.size_key, s.status, s.tool_version, s.nvrtc_version, s.started_at, s.ended_at, "
    "m.size_key, m.params_json, m.launch_json, m.status, m.reason, m.time_ms_median, m.time_ms_min, "
    "m.time_ms_max, m.time_ms_spread, m.samples, m.perf_value, m.perf_unit, m.regs_per_thread, "
    "m.smem_bytes, m.spill_bytes, m.blocks_per_sm, m.occupancy, m.limiter, m.compile_ms, m.error_text, "
    "m.measured_at FROM %SOURCE% m JOIN gpus g ON g.id = m.gpu_id "
    "JOIN templates t ON t.id = m.template_id JOIN sweeps s ON s.id = m.sweep_id ";

std::string RowSelect(const std::string& source) {
  std::string sql = kRowSelect;
  sql.replace(sql.find("%SOURCE%"), 8, source);
  return sql;
}

MeasurementRow ReadRow(const sql::Statement& s) {
  MeasurementRow row;
  row.id = s.Int64(0);
  row.sweep_id = s.Int64(1);
  row.gpu = {s.Text(2), s.Text(3), s.Int(4), s.Int(5), s.Int(6), s.Int64(7), s.Text(8), s.Text(9)};
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
  row.size_key = s.Text(23);
  row.measurement = ReadMeasurement(s, 24);
  return row;
}

}  // namespace

struct Store::Impl {
  sql::Connection connection;
  bool read_only;

  void RequireWritable(const char* what) const {
    if (read_only)
      throw std::logic_error(std::string(what) + ": database " + connection.path() + " is open read-only");
  }

  std::int64_t UpsertGpu(const GpuRecord& gpu) {
    sql::Statement upsert(connection,
                          "INSERT INTO gpus (uuid, name, cc_major, cc_minor, sm_count, memory_bytes, "
                          "driver_version, cuda_version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
                          "ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, "
                          "cc_major = excluded.cc_major, cc_minor = excluded.cc_minor, "
                          "sm_count = excluded.sm_count, memory_bytes = excluded.memory_bytes, "
                          "driver_version = excluded.driver_version, cuda_version = excluded.cuda_version");
    if (gpu.uuid.empty()) throw std::invalid_argument("EnsureGpu: the GPU has no uuid");
    upsert.Bind(1, gpu.uuid).Bind(2, gpu.name).Bind(3, gpu.cc_major).Bind(4, gpu.cc_minor);
    upsert.Bind(5, gpu.sm_count).Bind(6, gpu.memory_bytes).Bind(7, gpu.driver_version).Bind(8, gpu.cuda_version);
    upsert.Run();
    sql::Statement select(connection, "SELECT id FROM gpus WHERE uuid = ?1");
    select.Bind(1, gpu.uuid).Step();
    return select.Int64(0);
  }

  std::int64_t UpsertTemplate(const TemplateRecord& templ) {
    sql::Statement insert(connection,
                          "INSERT INTO templates (name, hash, first_seen) VALUES (?1, ?2, ?3) "
                          "ON CONFLICT (name, hash) DO UPDATE SET first_seen = excluded.first_seen "
                          "WHERE excluded.first_seen < templates.first_seen OR templates.first_seen = ''");
    insert.Bind(1, templ.name).Bind(2, templ.hash).Bind(3, templ.first_seen.empty() ? NowUtc() : templ.first_seen);
    insert.Run();
    sql::Statement select(connection, "SELECT id FROM templates WHERE name = ?1 AND hash = ?2");
    select.Bind(1, templ.name).Bind(2, templ.hash).Step();
    return select.Int64(0);
  }

  // `keep_existing`: a sweep of the same uid is already there (import), use it.
  std::int64_t InsertSweep(std::int64_t gpu_id, std::int64_t template_id, const SweepRecord& sweep,
                           bool keep_existing) {
    sql::Statement insert(connection,
                          std::string("INSERT INTO sweeps (gpu_id, template_id, command, strategy, budget, "
                                      "size_key, status, tool_version, nvrtc_version, started_at, ended_at, "
                                      "uid) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)") +
                              (keep_existing ? " ON CONFLICT (uid) DO NOTHING" : ""));
    const std::string uid = sweep.uid.empty() ? NewUid() : sweep.uid;
    insert.Bind(1, gpu_id).Bind(2, template_id).Bind(3, sweep.command).Bind(4, sweep.strategy);
    insert.Bind(5, sweep.budget).Bind(6, sweep.size_key).Bind(7, sweep.status.empty() ? "running" : sweep.status);
    insert.Bind(8, sweep.tool_version).Bind(9, sweep.nvrtc_version);
    insert.Bind(10, sweep.started_at.empty() ? NowUtc() : sweep.started_at).Bind(11, sweep.ended_at).Bind(12, uid);
    insert.Run();
    sql::Statement select(connection, "SELECT id FROM sweeps WHERE uid = ?1");
    select.Bind(1, uid).Step();
    return select.Int64(0);
  }

  // Returns the number of rows changed (0 when an import finds an equal or newer row).
  int UpsertMeasurement(std::int64_t sweep_id, std::int64_t gpu_id, std::int64_t template_id,
                        const std::string& size_key, const MeasurementRecord& m, bool only_if_newer) {
    sql::Statement upsert(connection, UpsertMeasurementSql(only_if_newer));
    upsert.Bind(1, sweep_id).Bind(2, gpu_id).Bind(3, template_id).Bind(4, size_key);
    BindMeasurement(upsert, 5, m);
    upsert.Run();
    return connection.Changes();
  }
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

Store Store::Open(const std::string& path, OpenMode mode) {
  const bool read_only = mode == OpenMode::kReadOnly;
  sql::Connection connection = read_only ? OpenExisting(path, true) : OpenOrCreate(path);
  return Store(std::make_unique<Impl>(Impl{std::move(connection), read_only}));
}

const std::string& Store::path() const { return impl_->connection.path(); }

std::int64_t Store::EnsureGpu(const GpuRecord& gpu) {
  impl_->RequireWritable("EnsureGpu");
  sql::Transaction transaction(impl_->connection);
  const std::int64_t id = impl_->UpsertGpu(gpu);
  transaction.Commit();
  return id;
}

std::int64_t Store::EnsureTemplate(const TemplateRecord& templ) {
  impl_->RequireWritable("EnsureTemplate");
  sql::Transaction transaction(impl_->connection);
  const std::int64_t id = impl_->UpsertTemplate(templ);
  transaction.Commit();
  return id;
}

std::int64_t Store::StartSweep(std::int64_t gpu_id, std::int64_t template_id, const SweepRecord& sweep) {
  impl_->RequireWritable("StartSweep");
  sql::Transaction transaction(impl_->connection);
  const std::int64_t id = impl_->InsertSweep(gpu_id, template_id, sweep, false);
  transaction.Commit();
  return id;
}

void Store::FinishSweep(std::int64_t sweep_id, const std::string& status) {
  impl_->RequireWritable("FinishSweep");
  sql::Transaction transaction(impl_->connection);
  sql::Statement update(impl_->connection, "UPDATE sweeps SET status = ?1, ended_at = ?2 WHERE id = ?3");
  update.Bind(1, status).Bind(2, NowUtc()).Bind(3, sweep_id).Run();
  if (impl_->connection.Changes() != 1)
    throw std::invalid_argument("FinishSweep: no sweep " + std::to_string(sweep_id) + " in " + path());
  transaction.Commit();
}

void Store::AddMeasurement(std::int64_t sweep_id, const MeasurementRecord& measurement) {
  impl_->RequireWritable("AddMeasurement");
  sql::Transaction transaction(impl_->connection);
  sql::Statement sweep(impl_->connection, "SELECT gpu_id, template_id, size_key FROM sweeps WHERE id = ?1");
  if (!sweep.Bind(1, sweep_id).Step())
    throw std::invalid_argument("AddMeasurement: no sweep " + std::to_string(sweep_id) + " in " + path());
  impl_->UpsertMeasurement(sweep_id, sweep.Int64(0), sweep.Int64(1), sweep.Text(2), measurement, false);
  transaction.Commit();
}

std::vector<MeasurementRecord> Store::Measurements(std::int64_t gpu_id, std::int64_t template_id,
                                                   const std::string& size_key) {
  sql::Statement select(impl_->connection, std::string("SELECT ") + kMeasurementColumns +
                                               " FROM measurements WHERE gpu_id = ?1 AND template_id = ?2 "
                                               "AND size_key = ?3 ORDER BY id");
  select.Bind(1, gpu_id).Bind(2, template_id).Bind(3, size_key);
  std::vector<MeasurementRecord> result;
  while (select.Step()) result.push_back(ReadMeasurement(select, 0));
  return result;
}

std::string Store::LatestTemplateHash(const std::string& template_name) {
  sql::Statement select(impl_->connection,
                        "SELECT hash FROM templates WHERE name = ?1 ORDER BY first_seen DESC, id DESC LIMIT 1");
  return select.Bind(1, template_name).Step() ? select.Text(0) : std::string();
}

std::vector<std::string> Store::TemplateNames() {
  sql::Statement select(impl_->connection, "SELECT DISTINCT name FROM templates ORDER BY name");
  std::vector<std::string> names;
  while (select.Step()) names.push_back(select.Text(0));
  return names;
}

std::vector<MeasurementRow> Store::ListMeasurements(const MeasurementFilter& filter) {
  std::string sql = RowSelect("measurements") +
                    "WHERE (?1 = '' OR t.name = ?1) AND (?2 = '' OR instr(lower(g.name), lower(?2)) > 0) "
                    "AND (?3 = '' OR m.size_key = ?3) AND (?4 = '' OR m.status = ?4) ";
  if (filter.current_only)
    sql += "AND t.id = (SELECT id FROM templates WHERE name = t.name ORDER BY first_seen DESC, id DESC LIMIT 1) ";
  sql += "ORDER BY t.name, g.name, g.uuid, m.size_key, m.status <> 'ok', m.time_ms_median, m.id";
  sql::Statement select(impl_->connection, sql);
  select.Bind(1, filter.template_name).Bind(2, filter.gpu_name).Bind(3, filter.size_key).Bind(4, filter.status);
  std::map<std::string, std::string> latest;
  std::vector<MeasurementRow> rows;
  while (select.Step()) {
    rows.push_back(ReadRow(select));
    MeasurementRow& row = rows.back();
    auto found = latest.find(row.templ.name);
    if (found == latest.end()) found = latest.emplace(row.templ.name, LatestTemplateHash(row.templ.name)).first;
    row.stale = row.templ.hash != found->second;
  }
  return rows;
}

std::vector<MeasurementRow> Store::BestPerGpu(const std::string& template_name, const std::string& current_hash) {
  const std::string hash = current_hash.empty() ? LatestTemplateHash(template_name) : current_hash;
  sql::Statement select(
      impl_->connection,
      RowSelect("(SELECT m.*, ROW_NUMBER() OVER (PARTITION BY m.gpu_id, m.template_id, m.size_key "
                "ORDER BY m.time_ms_median, m.id) AS rank_in_gpu FROM measurements m "
                "JOIN templates t ON t.id = m.template_id WHERE t.name = ?1 AND m.status = 'ok')") +
          "WHERE m.rank_in_gpu = 1 ORDER BY g.name, g.uuid, m.size_key");
  select.Bind(1, template_name);
  std::vector<MeasurementRow> rows;
  while (select.Step()) {
    rows.push_back(ReadRow(select));
    rows.back().stale = rows.back().templ.hash != hash;
  }
  return rows;
}

std::int64_t Store::Import(const std::vector<MeasurementRow>& rows) {
  impl_->RequireWritable("Import");
  sql::Transaction transaction(impl_->connection);
  std::map<std::string, std::int64_t> gpus, templates, sweeps;
  std::int64_t changed = 0;
  for (const MeasurementRow& row : rows) {
    auto gpu = gpus.find(row.gpu.uuid);
    if (gpu == gpus.end()) gpu = gpus.emplace(row.gpu.uuid, impl_->UpsertGpu(row.gpu)).first;
    const std::string template_key = row.templ.name + '\n' + row.templ.hash;
    auto templ = templates.find(template_key);
    if (templ == templates.end()) templ = templates.emplace(template_key, impl_->UpsertTemplate(row.templ)).first;
    SweepRecord sweep = row.sweep;
    if (sweep.uid.empty()) sweep.uid = "import-" + row.gpu.uuid + "-" + row.templ.hash + "-" + sweep.started_at;
    if (sweep.size_key.empty()) sweep.size_key = row.size_key;
    auto sweep_id = sweeps.find(sweep.uid);
    if (sweep_id == sweeps.end())
      sweep_id = sweeps.emplace(sweep.uid, impl_->InsertSweep(gpu->second, templ->second, sweep, true)).first;
    changed += impl_->UpsertMeasurement(sweep_id->second, gpu->second, templ->second, row.size_key,
                                        row.measurement, true);
  }
  transaction.Commit();
  return changed;
}

std::vector<CountRow> Store::Counts() {
  sql::Statement select(impl_->connection,
                        "SELECT g.name, g.uuid, t.name, m.status, COUNT(*) FROM measurements m "
                        "JOIN gpus g ON g.id = m.gpu_id JOIN templates t ON t.id = m.template_id "
                        "GROUP BY g.id, t.name, m.status ORDER BY g.name, g.uuid, t.name, m.status");
  std::vector<CountRow> rows;
  while (select.Step())
    rows.push_back({select.Text(0), select.Text(1), select.Text(2), select.Text(3), select.Int64(4)});
  return rows;
}

std::vector<std::string> Store::FullCheck() { return db::FullCheck(impl_->connection); }

int Store::SchemaVersion() { return static_cast<int>(impl_->connection.QueryInt("PRAGMA user_version")); }

}  // namespace tuner::db
