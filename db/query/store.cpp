#include "db/query/store.h"

#include "db/query/gpu_model.h"

#include <iostream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "base/random_hex.h"
#include "db/query/gpu_model.h"
#include "db/query/schema.h"
#include "db/query/selection.h"
#include "db/query/sqlite.h"
#include "db/query/store_columns.h"
#include "db/query/timing_filter.h"

namespace tuner::db {

namespace {

std::string NewUid() { return RandomHex(16); }

}  // namespace

struct Store::Impl {
  Impl(sql::Connection c, bool r, int version, bool tidy = true)
      : connection(std::move(c)), read_only(r), tidy_after_close(tidy), file_schema_version(version) {}
  // The file at rest is one self-contained file: a writer leaves WAL mode on its own connection
  // when it is the only one; otherwise whoever closes last does it (TidyAfterClose), readers too,
  // but for a file a reader found at rest in WAL mode: that one it leaves as it found it.
  ~Impl() {
    prepared.clear();  // a statement left unfinalized would keep the file open
    const std::string path = connection.path();
    if (!read_only) {
      try {
        db::LeaveWalMode(connection);
      } catch (const std::exception& e) {
        std::cerr << "warning: " << e.what() << " (the database stays in WAL mode; it is correct either way)\n";
      }
    }
    { const sql::Connection closing = std::move(connection); }
    if (tidy_after_close) TidyAfterClose(path);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  sql::Connection connection;
  bool read_only;
  bool tidy_after_close;
  int file_schema_version;
  // Statements run many times, prepared once: preparing one that fires the best_per_gpu triggers
  // costs more than running it.
  std::map<std::string, sql::Statement> prepared;

  sql::Statement& Prepared(const std::string& sql) {
    auto found = prepared.find(sql);
    if (found == prepared.end()) found = prepared.emplace(sql, sql::Statement(connection, sql)).first;
    found->second.Reset();  // also after a run that threw
    return found->second;
  }
  // Serialises the calls of threads sharing this Store (one sweep per GPU): one connection is one
  // writer, which SQLite 3.40 needs (before 3.51.3 two connections writing or checkpointing at once
  // can hit the WAL-reset race). Recursive: some calls make others.
  std::recursive_mutex mutex;
  std::unique_lock<std::recursive_mutex> Lock() { return std::unique_lock<std::recursive_mutex>(mutex); }

  void RequireWritable(const char* what) const {
    if (read_only) throw std::logic_error(std::string(what) + ": database " + connection.path() + " is open read-only");
  }

  // One statement of `what` in its own transaction, `values` bound to ?1, ?2, ... in order.
  template <typename... Values>
  void Write(const char* what, const std::string& sql, const Values&... values) {
    RequireWritable(what);
    sql::Transaction transaction(connection);
    sql::Statement statement(connection, sql);
    int index = 1;
    (statement.Bind(index++, values), ...);
    statement.Run();
    transaction.Commit();
  }

  std::int64_t UpsertGpu(const GpuRecord& gpu) {
    sql::Statement upsert(connection,
                          "INSERT INTO gpus (uuid, name, cc_major, cc_minor, sm_count, memory_bytes, "
                          "driver_version, cuda_version, sm_clock_mhz) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
                          "ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, "
                          "cc_major = excluded.cc_major, cc_minor = excluded.cc_minor, "
                          "sm_count = excluded.sm_count, memory_bytes = excluded.memory_bytes, "
                          "driver_version = excluded.driver_version, cuda_version = excluded.cuda_version, "
                          "sm_clock_mhz = max(sm_clock_mhz, excluded.sm_clock_mhz)");
    if (gpu.uuid.empty()) throw std::invalid_argument("EnsureGpu: the GPU has no uuid");
    upsert.Bind(1, gpu.uuid).Bind(2, gpu.name).Bind(3, gpu.cc_major).Bind(4, gpu.cc_minor);
    upsert.Bind(5, gpu.sm_count).Bind(6, gpu.memory_bytes).Bind(7, gpu.driver_version).Bind(8, gpu.cuda_version);
    upsert.Bind(9, gpu.sm_clock_mhz);
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
    sql::Statement insert(
        connection, std::string("INSERT INTO sweeps (gpu_id, template_id, command, strategy, budget, "
                                "size_key, status, tool_version, nvrtc_version, started_at, ended_at, "
                                "uid, copy_gbps) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)") +
                        (keep_existing ? " ON CONFLICT (uid) DO NOTHING" : ""));
    const std::string uid = sweep.uid.empty() ? NewUid() : sweep.uid;
    insert.Bind(1, gpu_id).Bind(2, template_id).Bind(3, sweep.command).Bind(4, sweep.strategy);
    insert.Bind(5, sweep.budget).Bind(6, sweep.size_key).Bind(7, sweep.status.empty() ? "running" : sweep.status);
    insert.Bind(8, sweep.tool_version).Bind(9, sweep.nvrtc_version);
    insert.Bind(10, sweep.started_at.empty() ? NowUtc() : sweep.started_at).Bind(11, sweep.ended_at).Bind(12, uid);
    insert.Bind(13, sweep.copy_gbps);
    insert.Run();
    sql::Statement select(connection, "SELECT id FROM sweeps WHERE uid = ?1");
    select.Bind(1, uid).Step();
    return select.Int64(0);
  }

  // Returns the number of rows changed (0 when an import finds an equal or newer row).
  int UpsertMeasurement(std::int64_t sweep_id, std::int64_t gpu_id, std::int64_t template_id,
                        const std::string& size_key, const MeasurementRecord& m, bool only_if_newer) {
    sql::Statement& upsert = Prepared(UpsertMeasurementSql(only_if_newer));
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

Store Store::Open(const std::string& path, OpenMode mode, IntegrityCheck check) {
  if (mode == OpenMode::kReadWrite) return Store(std::make_unique<Impl>(OpenForWriting(path), false, kSchemaVersion));
  ReadConnection opened = OpenForReading(path, check);
  return Store(std::make_unique<Impl>(std::move(opened.connection), true, opened.file_schema_version,
                                      !opened.at_rest_in_wal_mode));
}

void Store::CheckWritable(const std::string& path) { db::CheckWritable(path); }

const std::string& Store::path() const { return impl_->connection.path(); }

std::int64_t Store::EnsureGpu(const GpuRecord& gpu) {
  const auto lock = impl_->Lock();
  impl_->RequireWritable("EnsureGpu");
  sql::Transaction transaction(impl_->connection);
  const std::int64_t id = impl_->UpsertGpu(gpu);
  transaction.Commit();
  return id;
}

std::int64_t Store::EnsureTemplate(const TemplateRecord& templ) {
  const auto lock = impl_->Lock();
  impl_->RequireWritable("EnsureTemplate");
  sql::Transaction transaction(impl_->connection);
  const std::int64_t id = impl_->UpsertTemplate(templ);
  transaction.Commit();
  return id;
}

std::int64_t Store::StartSweep(std::int64_t gpu_id, std::int64_t template_id, const SweepRecord& sweep) {
  const auto lock = impl_->Lock();
  impl_->RequireWritable("StartSweep");
  sql::Transaction transaction(impl_->connection);
  const std::int64_t id = impl_->InsertSweep(gpu_id, template_id, sweep, false);
  transaction.Commit();
  return id;
}

void Store::FinishSweep(std::int64_t sweep_id, const std::string& status) {
  const auto lock = impl_->Lock();
  impl_->RequireWritable("FinishSweep");
  sql::Transaction transaction(impl_->connection);
  sql::Statement update(impl_->connection, "UPDATE sweeps SET status = ?1, ended_at = ?2 WHERE id = ?3");
  update.Bind(1, status).Bind(2, NowUtc()).Bind(3, sweep_id).Run();
  if (impl_->connection.Changes() != 1)
    throw std::invalid_argument("FinishSweep: no sweep " + std::to_string(sweep_id) + " in " + path());
  transaction.Commit();
}

void Store::SetCopyBandwidth(std::int64_t sweep_id, double copy_gbps) {
  const auto lock = impl_->Lock();
  impl_->Write("SetCopyBandwidth", "UPDATE sweeps SET copy_gbps = ?1 WHERE id = ?2", copy_gbps, sweep_id);
}

void Store::ClearTie(std::int64_t sweep_id, const std::string& timing_mode) {
  const auto lock = impl_->Lock();
  impl_->Write("ClearTie",
               "UPDATE measurements SET tie_ms = 0, tie_rank = 0 WHERE tie_rank > 0 AND timing_mode = ?2 AND "
               "(gpu_id, template_id, size_key) = (SELECT gpu_id, template_id, size_key FROM sweeps WHERE id = ?1)",
               sweep_id, timing_mode);
}

void Store::SetRevalidation(std::int64_t measurement_id, const std::string& outcome) {
  const auto lock = impl_->Lock();
  impl_->Write("SetRevalidation", "UPDATE measurements SET revalidation = ?1 WHERE id = ?2", outcome, measurement_id);
}

void Store::AddMeasurement(std::int64_t sweep_id, const MeasurementRecord& measurement) {
  const auto lock = impl_->Lock();
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
  const auto lock = impl_->Lock();
  sql::Statement select(impl_->connection, "SELECT " + MeasurementColumns() +
                                               ", id FROM measurements WHERE gpu_id = ?1 AND template_id = ?2 "
                                               "AND size_key = ?3 ORDER BY id");
  select.Bind(1, gpu_id).Bind(2, template_id).Bind(3, size_key);
  return ReadMeasurementsWithIds(select);
}

std::vector<MeasurementRecord> Store::ModelMeasurements(std::int64_t gpu_id, std::int64_t template_id,
                                                        const std::string& size_key) {
  const auto lock = impl_->Lock();
  sql::Statement select(impl_->connection,
                        "SELECT " + MeasurementColumns() +
                            ", id FROM measurements WHERE template_id = ?2 AND size_key = ?3 AND gpu_id IN ("
                            "SELECT o.id FROM gpus o JOIN gpus g ON g.id = ?1 WHERE " +
                            SameModelSql("o", "g") + ") ORDER BY id");
  select.Bind(1, gpu_id).Bind(2, template_id).Bind(3, size_key);
  return ReadMeasurementsWithIds(select);
}

std::string Store::LatestTemplateHash(const std::string& template_name) {
  const auto lock = impl_->Lock();
  sql::Statement select(impl_->connection,
                        "SELECT hash FROM templates WHERE name = ?1 ORDER BY first_seen DESC, id DESC LIMIT 1");
  return select.Bind(1, template_name).Step() ? select.Text(0) : std::string();
}

std::vector<std::string> Store::TemplateNames() {
  const auto lock = impl_->Lock();
  sql::Statement select(impl_->connection, "SELECT DISTINCT name FROM templates ORDER BY name");
  std::vector<std::string> names;
  while (select.Step()) names.push_back(select.Text(0));
  return names;
}

std::vector<MeasurementRow> Store::ListMeasurements(const MeasurementFilter& filter) {
  const auto lock = impl_->Lock();
  std::string sql = RowSelect("measurements") +
                    "WHERE (?1 = '' OR t.name = ?1) AND (?2 = '' OR instr(lower(g.name), lower(?2)) > 0) "
                    "AND (?3 = '' OR m.size_key = ?3) AND (?4 = '' OR m.status = ?4) ";
  if (filter.current_only)
    sql += "AND t.id = (SELECT id FROM templates WHERE name = t.name ORDER BY first_seen DESC, id DESC LIMIT 1) ";
  sql += "ORDER BY t.name, g.name, g.uuid, m.size_key, m.status <> 'ok', m.time_ms_median, m.id";
  sql::Statement select(impl_->connection, sql);
  select.Bind(1, filter.template_name)
      .Bind(2, filter.gpu_name)
      .Bind(3, filter.size_key)
      .Bind(4, filter.status ? ToText(*filter.status) : "");
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

std::vector<MeasurementRow> Store::BestPerGpu(const std::string& template_name, const std::string& current_hash,
                                              const std::string& timing_mode) {
  const auto lock = impl_->Lock();
  const std::string hash = current_hash.empty() ? LatestTemplateHash(template_name) : current_hash;
  // best_per_gpu is kept by triggers (schema version 5): a few hundred rows, read by their key.
  sql::Statement select(impl_->connection,
                        RowSelect("(SELECT m.* FROM templates bt JOIN best_per_gpu b ON b.template_id = bt.id "
                                  "JOIN measurements m ON m.id = b.measurement_id WHERE bt.name = ?1)") +
                            "ORDER BY g.name, g.uuid, m.size_key");
  select.Bind(1, template_name);
  std::vector<MeasurementRow> rows;
  while (select.Step()) {
    rows.push_back(ReadRow(select));
    rows.back().stale = rows.back().templ.hash != hash;
  }
  return OneTimingMode(std::move(rows), timing_mode);
}

std::vector<MeasurementRow> Store::BestPerModel(const std::string& template_name, const std::string& current_hash,
                                                const std::string& timing_mode) {
  const auto lock = impl_->Lock();
  std::map<std::tuple<GpuModel, std::string, std::string, std::string>, MeasurementRow> best;
  for (MeasurementRow& row : BestPerGpu(template_name, current_hash, timing_mode)) {
    auto key = std::make_tuple(ModelOf(row.gpu), row.templ.hash, row.size_key, row.measurement.timing_mode);
    auto found = best.find(key);
    if (found == best.end())
      best.emplace(std::move(key), std::move(row));
    else if (Faster(row, found->second))
      found->second = std::move(row);
  }
  std::vector<MeasurementRow> rows;
  for (auto& entry : best) rows.push_back(std::move(entry.second));
  return OneTimingMode(std::move(rows), timing_mode, ModeGroup::kModel);  // the cards of a model may differ
}

namespace {

// The lookup reads three small statements rather than one join: the rows of best_per_gpu alone are
// a few contiguous pages, and the GPUs and template versions they name are a handful of rows.
const char* const kLookupGpusSql = "SELECT id, uuid, name, cc_major, cc_minor, sm_count, memory_bytes FROM gpus";
const char* const kLookupVersionsSql =
    "SELECT id, hash FROM templates WHERE name = ?1 ORDER BY first_seen DESC, id DESC";  // current first
// A measurement column as best_per_gpu's row gives it: the columns it copies, 'ok' (only an `ok` row
// is best), and '' or 0 for the others, so that the row reads as every measurement (ReadMeasurement).
std::string LookupBestColumn(const MeasurementField& field) {
  const std::string name = field.name;
  if (name == "status") return "'ok'";
  for (const char* copied : {"params_json", "launch_json", "time_ms_median", "perf_value", "perf_unit", "measured_at",
                             "timing_mode", "toolchain"})
    if (name == copied) return "b." + name;
  return std::string(SqlType(field)) == "TEXT" ? "''" : "0";
}

const std::string& LookupBestSql() {
  static const std::string sql = "SELECT b.template_id, b.gpu_id, b.size_key, b.measurement_id, " +
                                 MeasurementColumnList(LookupBestColumn) +
                                 " FROM templates t JOIN best_per_gpu b ON b.template_id = t.id WHERE t.name = ?1";
  return sql;
}

// Runs a prepared statement to its end, `read` called on every row; reset even when it throws, so
// that it ends its read transaction and can be bound again.
template <typename Read>
void ForEachRow(sql::Statement& statement, Read read) {
  try {
    while (statement.Step()) read(statement);
  } catch (...) {
    statement.Reset();
    throw;
  }
  statement.Reset();
}

}  // namespace

void Store::PrepareBestForLookup() {
  const auto lock = impl_->Lock();
  for (const std::string& sql : {std::string(kLookupGpusSql), std::string(kLookupVersionsSql), LookupBestSql()})
    impl_->Prepared(sql);
}

std::vector<MeasurementRow> Store::BestForLookup(const std::string& template_name, const std::string& timing_mode) {
  const auto lock = impl_->Lock();
  std::map<std::int64_t, GpuRecord> gpus;
  ForEachRow(impl_->Prepared(kLookupGpusSql), [&](const sql::Statement& s) {
    gpus[s.Int64(0)] = {{s.Text(2), s.Int(3), s.Int(4), s.Int(5), s.Int64(6), s.Text(1)}, "", "", 0};
  });
  std::map<std::int64_t, std::string> hashes;
  std::int64_t current = 0;
  sql::Statement& versions = impl_->Prepared(kLookupVersionsSql);
  versions.Bind(1, template_name);
  ForEachRow(versions, [&](const sql::Statement& s) {
    if (hashes.empty()) current = s.Int64(0);
    hashes[s.Int64(0)] = s.Text(1);
  });
  std::vector<MeasurementRow> rows;
  sql::Statement& best = impl_->Prepared(LookupBestSql());
  best.Bind(1, template_name);
  ForEachRow(best, [&](const sql::Statement& s) {
    MeasurementRow& row = rows.emplace_back();
    row.templ = {template_name, hashes[s.Int64(0)], ""};
    row.stale = s.Int64(0) != current;
    row.gpu = gpus[s.Int64(1)];
    row.size_key = s.Text(2);
    row.measurement = ReadMeasurement(s, 4);
    row.measurement.id = s.Int64(3);
  });
  return OneTimingMode(std::move(rows), timing_mode);
}

std::int64_t Store::Import(const std::vector<MeasurementRow>& rows) {
  const auto lock = impl_->Lock();
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
    changed +=
        impl_->UpsertMeasurement(sweep_id->second, gpu->second, templ->second, row.size_key, row.measurement, true);
  }
  transaction.Commit();
  return changed;
}

std::vector<CountRow> Store::Counts() {
  const auto lock = impl_->Lock();
  sql::Statement select(impl_->connection,
                        "SELECT g.name, g.uuid, t.name, m.status, COUNT(*) FROM measurements m "
                        "JOIN gpus g ON g.id = m.gpu_id JOIN templates t ON t.id = m.template_id "
                        "GROUP BY g.id, t.name, m.status ORDER BY g.name, g.uuid, t.name, m.status");
  std::vector<CountRow> rows;
  while (select.Step())
    rows.push_back({select.Text(0), select.Text(1), select.Text(2), ReadStatus(select.Text(3)), select.Int64(4)});
  return rows;
}

std::vector<std::string> Store::FullCheck() {
  const auto lock = impl_->Lock();
  return db::FullCheck(impl_->connection);
}

int Store::SchemaVersion() const { return impl_->file_schema_version; }

bool Store::LeaveWalMode() {
  const auto lock = impl_->Lock();
  impl_->RequireWritable("LeaveWalMode");
  return db::LeaveWalMode(impl_->connection);
}

}  // namespace tuner::db
