#include "db/query/schema.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <stdexcept>
#include <thread>

#include "base/errors.h"
#include "base/random_hex.h"
#include "db/query/best.h"

namespace tuner::db {

namespace fs = std::filesystem;

namespace {

// Version 1: the first schema. Kept unchanged: tests/fixtures/schema_v1.db was made by it.
const char* kSchemaV1 = R"sql(
CREATE TABLE gpus (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  cc_major INTEGER NOT NULL,
  cc_minor INTEGER NOT NULL,
  sm_count INTEGER NOT NULL,
  memory_bytes INTEGER NOT NULL,
  driver_version TEXT NOT NULL DEFAULT '',
  cuda_version TEXT NOT NULL DEFAULT ''
);
CREATE TABLE templates (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  hash TEXT NOT NULL,
  UNIQUE (name, hash)
);
CREATE TABLE sweeps (
  id INTEGER PRIMARY KEY,
  gpu_id INTEGER NOT NULL REFERENCES gpus(id),
  template_id INTEGER NOT NULL REFERENCES templates(id),
  command TEXT NOT NULL DEFAULT '',
  strategy TEXT NOT NULL DEFAULT '',
  budget INTEGER NOT NULL DEFAULT 0,
  size_key TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'running',
  tool_version TEXT NOT NULL DEFAULT '',
  nvrtc_version TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL DEFAULT '',
  ended_at TEXT NOT NULL DEFAULT ''
);
CREATE TABLE measurements (
  id INTEGER PRIMARY KEY,
  sweep_id INTEGER NOT NULL REFERENCES sweeps(id),
  gpu_id INTEGER NOT NULL REFERENCES gpus(id),
  template_id INTEGER NOT NULL REFERENCES templates(id),
  size_key TEXT NOT NULL,
  params_json TEXT NOT NULL,
  launch_json TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  time_ms_median REAL NOT NULL DEFAULT 0,
  time_ms_min REAL NOT NULL DEFAULT 0,
  time_ms_max REAL NOT NULL DEFAULT 0,
  samples INTEGER NOT NULL DEFAULT 0,
  perf_value REAL NOT NULL DEFAULT 0,
  perf_unit TEXT NOT NULL DEFAULT '',
  regs_per_thread INTEGER NOT NULL DEFAULT 0,
  smem_bytes INTEGER NOT NULL DEFAULT 0,
  blocks_per_sm INTEGER NOT NULL DEFAULT 0,
  occupancy REAL NOT NULL DEFAULT 0,
  limiter TEXT NOT NULL DEFAULT '',
  compile_ms REAL NOT NULL DEFAULT 0,
  error_text TEXT NOT NULL DEFAULT '',
  measured_at TEXT NOT NULL DEFAULT '',
  UNIQUE (gpu_id, template_id, size_key, params_json)
);
)sql";

// Version 2: sweeps get a global id (merging databases of several machines), measurements the
// spread and spill columns; an index for the best-of lookups and a view of the best per GPU model.
// A version-1 sweep's id is made of its row (its GPU's uuid, its id and start), not drawn at random:
// a version-1 file is read through a copy upgraded in memory at every reading, and a merge or an
// export must find the same sweep each time.
const char* kSchemaV2 = R"sql(
ALTER TABLE sweeps ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE templates ADD COLUMN first_seen TEXT NOT NULL DEFAULT '';
UPDATE sweeps SET uid = 'v1-' || (SELECT uuid FROM gpus WHERE gpus.id = sweeps.gpu_id) || '-' || id || '-' || started_at
  WHERE uid = '';
CREATE UNIQUE INDEX sweeps_uid ON sweeps(uid);
ALTER TABLE measurements ADD COLUMN time_ms_spread REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN spill_bytes INTEGER NOT NULL DEFAULT 0;
CREATE INDEX measurements_best ON measurements(template_id, status, size_key, time_ms_median);
%BEST_PER_MODEL%
)sql";

// The best `ok` row per GPU model and best_per_gpu's group (its columns but the GPU: %GROUP%, over
// m), ranked by %ORDER% (over m).
const char* kBestPerModelView = R"sql(
CREATE VIEW best_per_model AS
SELECT * FROM (
  SELECT m.*, g.name AS gpu_name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes,
         t.name AS template_name, t.hash AS template_hash,
         ROW_NUMBER() OVER (
           PARTITION BY g.name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes, %GROUP%
           ORDER BY %ORDER%) AS rank_in_model
  FROM measurements m JOIN gpus g ON g.id = m.gpu_id JOIN templates t ON t.id = m.template_id
  WHERE m.status = 'ok')
WHERE rank_in_model = 1;
)sql";

// Version 3: the ceilings reports compare with: the copy bandwidth measured by each sweep and the
// GPU's peak SM clock.
const char* kSchemaV3 = R"sql(
ALTER TABLE sweeps ADD COLUMN copy_gbps REAL NOT NULL DEFAULT 0;
ALTER TABLE gpus ADD COLUMN sm_clock_mhz INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 4: how often a candidate killed its GPU worker, so a sweep retries it once and a resume
// never tries it a third time. A v3 fault or timeout killed its worker once.
const char* kSchemaV4 = R"sql(
ALTER TABLE measurements ADD COLUMN worker_kills INTEGER NOT NULL DEFAULT 0;
UPDATE measurements SET worker_kills = 1 WHERE status IN ('fault', 'timeout');
)sql";

// Version 5: the best `ok` row of every (template version, GPU, size), kept by triggers on every
// change of a measurement, with a copy of what a lookup reads. Clustered by template, the rows of
// one kernel lie on a few pages: the application library's first lookup of a kernel reads them
// instead of ranking every measurement of the template (41 ms for 30,000). The triggers' index
// replaces measurements_best (%BEST_TABLE%: kBestTable, as of version 5).
const char* kSchemaV5 = R"sql(
DROP INDEX measurements_best;
CREATE INDEX measurements_group ON measurements(template_id, gpu_id, size_key, status, time_ms_median);
CREATE TABLE best_per_gpu (
  template_id INTEGER NOT NULL REFERENCES templates(id),
  gpu_id INTEGER NOT NULL REFERENCES gpus(id),
  size_key TEXT NOT NULL,
  measurement_id INTEGER NOT NULL REFERENCES measurements(id),
  time_ms_median REAL NOT NULL,
  perf_value REAL NOT NULL,
  perf_unit TEXT NOT NULL,
  params_json TEXT NOT NULL,
  launch_json TEXT NOT NULL,
  measured_at TEXT NOT NULL,
  PRIMARY KEY (template_id, gpu_id, size_key)
) WITHOUT ROWID;
%BEST_TABLE%
)sql";

// Version 6: what the hardware says about a candidate, measured after its timing for some `ok`
// candidates: counters as JSON (db/counters.h), energy per launch, the mean power reading and the
// time per launch while energy was measured, and the work per joule. Older rows have none ('' and 0).
const char* kSchemaV6 = R"sql(
ALTER TABLE measurements ADD COLUMN counters_json TEXT NOT NULL DEFAULT '';
ALTER TABLE measurements ADD COLUMN energy_j REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN power_w REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN energy_launch_ms REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN perf_per_joule REAL NOT NULL DEFAULT 0;
)sql";

// Version 7: how each measurement was timed (base/timing_mode.h); every earlier row was timed
// isolated. A candidate keeps one row per mode, so a sweep in another mode adds its results beside the
// stored ones instead of replacing them: the key of measurements gains the mode, which SQLite changes
// only by making the table again (its columns in the order the earlier versions left them, the mode
// last). Results of different modes are never ranked together: best_per_gpu keeps the best row of
// each (template version, GPU, size, timing mode) and best_per_model ranks within a mode; both are
// made again with the mode, and best_per_gpu's triggers and their index with them.
const char* kSchemaV7 = R"sql(
DROP VIEW best_per_model;
DROP TRIGGER best_after_insert;
DROP TRIGGER best_after_update;
DROP TRIGGER best_after_delete;
DROP TABLE best_per_gpu;
CREATE TABLE measurements_v7 (
  id INTEGER PRIMARY KEY,
  sweep_id INTEGER NOT NULL REFERENCES sweeps(id),
  gpu_id INTEGER NOT NULL REFERENCES gpus(id),
  template_id INTEGER NOT NULL REFERENCES templates(id),
  size_key TEXT NOT NULL,
  params_json TEXT NOT NULL,
  launch_json TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  time_ms_median REAL NOT NULL DEFAULT 0,
  time_ms_min REAL NOT NULL DEFAULT 0,
  time_ms_max REAL NOT NULL DEFAULT 0,
  samples INTEGER NOT NULL DEFAULT 0,
  perf_value REAL NOT NULL DEFAULT 0,
  perf_unit TEXT NOT NULL DEFAULT '',
  regs_per_thread INTEGER NOT NULL DEFAULT 0,
  smem_bytes INTEGER NOT NULL DEFAULT 0,
  blocks_per_sm INTEGER NOT NULL DEFAULT 0,
  occupancy REAL NOT NULL DEFAULT 0,
  limiter TEXT NOT NULL DEFAULT '',
  compile_ms REAL NOT NULL DEFAULT 0,
  error_text TEXT NOT NULL DEFAULT '',
  measured_at TEXT NOT NULL DEFAULT '',
  time_ms_spread REAL NOT NULL DEFAULT 0,
  spill_bytes INTEGER NOT NULL DEFAULT 0,
  worker_kills INTEGER NOT NULL DEFAULT 0,
  counters_json TEXT NOT NULL DEFAULT '',
  energy_j REAL NOT NULL DEFAULT 0,
  power_w REAL NOT NULL DEFAULT 0,
  energy_launch_ms REAL NOT NULL DEFAULT 0,
  perf_per_joule REAL NOT NULL DEFAULT 0,
  timing_mode TEXT NOT NULL DEFAULT 'isolated',
  UNIQUE (gpu_id, template_id, size_key, timing_mode, params_json)
);
INSERT INTO measurements_v7 SELECT *, 'isolated' FROM measurements;
DROP TABLE measurements;
ALTER TABLE measurements_v7 RENAME TO measurements;
CREATE INDEX measurements_group ON measurements(template_id, gpu_id, size_key, timing_mode, status, time_ms_median);
%BEST_PER_MODEL%
CREATE TABLE best_per_gpu (
  template_id INTEGER NOT NULL REFERENCES templates(id),
  gpu_id INTEGER NOT NULL REFERENCES gpus(id),
  size_key TEXT NOT NULL,
  timing_mode TEXT NOT NULL,
  measurement_id INTEGER NOT NULL REFERENCES measurements(id),
  time_ms_median REAL NOT NULL,
  perf_value REAL NOT NULL,
  perf_unit TEXT NOT NULL,
  params_json TEXT NOT NULL,
  launch_json TEXT NOT NULL,
  measured_at TEXT NOT NULL,
  PRIMARY KEY (template_id, gpu_id, size_key, timing_mode)
) WITHOUT ROWID;
%BEST_TABLE%
)sql";

// Version 8: ties and toolchains. A tie's members (leaders within their noise, db/query/tie_rule.h)
// rank at the tie's time in the order of the tie rule, so best_per_gpu, its triggers and
// best_per_model rank by db/query/best.h's rule with them (kFastestFirstSql), still within one timing
// mode; best_per_gpu keeps the toolchain for the application library. A result keeps its toolchain;
// older rows know only their sweep's NVRTC. A revalidation's outcome (db/query/revalidation.h) is
// kept with the result.
const char* kTrustMigration = R"sql(
ALTER TABLE measurements ADD COLUMN tie_ms REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN tie_rank INTEGER NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN toolchain TEXT NOT NULL DEFAULT '';
ALTER TABLE measurements ADD COLUMN revalidation TEXT NOT NULL DEFAULT '';
UPDATE measurements SET toolchain = (SELECT CASE WHEN s.nvrtc_version <> '' THEN 'nvrtc ' || s.nvrtc_version
                                            ELSE '' END FROM sweeps s WHERE s.id = measurements.sweep_id);
DROP TRIGGER best_after_insert;
DROP TRIGGER best_after_update;
DROP TRIGGER best_after_delete;
ALTER TABLE best_per_gpu ADD COLUMN toolchain TEXT NOT NULL DEFAULT '';
DELETE FROM best_per_gpu;
%BEST_TABLE%
DROP VIEW best_per_model;
%BEST_PER_MODEL%
)sql";

// best_per_gpu as a migration leaves it: filled, and kept by triggers. %RECOMPUTE(ROW)% stands for
// the statements that recompute the group of ROW (NEW or OLD).
const char* kBestTable = R"sql(
INSERT INTO best_per_gpu %BEST_RANKED%;
CREATE TRIGGER best_after_insert AFTER INSERT ON measurements BEGIN %RECOMPUTE(NEW)% END;
CREATE TRIGGER best_after_update AFTER UPDATE ON measurements BEGIN %RECOMPUTE(OLD)% %RECOMPUTE(NEW)% END;
CREATE TRIGGER best_after_delete AFTER DELETE ON measurements BEGIN %RECOMPUTE(OLD)% END;
)sql";

// What best_per_gpu groups by, the columns of measurements that make its row (in its order) and how
// a group's best is ranked, as of one schema version: version 5 made it (best_per_model ranking as
// it does from version 2), version 7 made it again with the timing mode, version 8 ranks by the tie
// rule and keeps the toolchain. Each migration keeps its own.
struct BestTable {
  std::vector<std::string> group;
  std::string columns;
  std::string fastest_first;
};
const BestTable kBestV5 = {{"template_id", "gpu_id", "size_key"},
                           "template_id, gpu_id, size_key, id, time_ms_median, perf_value, perf_unit, params_json, "
                           "launch_json, measured_at",
                           "time_ms_median, id"};
const BestTable kBestV7 = {{"template_id", "gpu_id", "size_key", "timing_mode"},
                           "template_id, gpu_id, size_key, timing_mode, id, time_ms_median, perf_value, perf_unit, "
                           "params_json, launch_json, measured_at",
                           "time_ms_median, id"};
const BestTable kBestV8 = {kBestV7.group, kBestV7.columns + ", toolchain", kFastestFirstSql};

// The best `ok` row of each group by ranking them all: how a migration fills best_per_gpu, and (the
// current table's) what `tuner db check` compares it with.
std::string BestRankedSql(const BestTable& table = kBestV8) {
  std::string partition;
  for (const std::string& column : table.group) partition += (partition.empty() ? "" : ", ") + column;
  return "SELECT " + table.columns + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY " + partition + " ORDER BY " +
         table.fastest_first + ") AS rank_in_group FROM measurements WHERE status = 'ok') WHERE rank_in_group = 1";
}

// `row` is NEW or OLD: the trigger's measurement, whose group is recomputed.
std::string RecomputeGroupSql(const BestTable& table, const std::string& row) {
  std::string group;
  for (const std::string& column : table.group)
    group += (group.empty() ? "" : " AND ") + column + " = " + row + "." + column;
  return "DELETE FROM best_per_gpu WHERE " + group + "; INSERT INTO best_per_gpu SELECT " + table.columns +
         " FROM measurements WHERE " + group + " AND status = 'ok' ORDER BY " + table.fastest_first + " LIMIT 1;";
}

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

std::string BestTableSql(const BestTable& table) {
  std::string sql = kBestTable;
  ReplaceAll(sql, "%BEST_RANKED%", BestRankedSql(table));
  for (const std::string row : {"NEW", "OLD"})
    ReplaceAll(sql, "%RECOMPUTE(" + row + ")%", RecomputeGroupSql(table, row));
  return sql;
}

// An ORDER BY over measurements (fastest_first's columns) as one over the measurements named m.
std::string OverM(std::string order) {
  for (const std::string column : {"tie_ms", "tie_rank", "time_ms_median"}) ReplaceAll(order, column, "m." + column);
  ReplaceAll(order, ", id", ", m.id");
  return order;
}

// best_per_model ranks as best_per_gpu does, over each GPU model instead of each GPU.
std::string BestPerModelView(const BestTable& table) {
  std::string group;
  for (const std::string& column : table.group)
    if (column != "gpu_id") group += (group.empty() ? "m." : ", m.") + column;
  std::string sql = kBestPerModelView;
  ReplaceAll(sql, "%GROUP%", group);
  ReplaceAll(sql, "%ORDER%", OverM(table.fastest_first));
  return sql;
}

// A migration with its placeholders (%BEST_TABLE%, %BEST_PER_MODEL%) filled for `table`.
std::string WithBest(const char* migration, const BestTable& table) {
  std::string sql = migration;
  ReplaceAll(sql, "%BEST_TABLE%", BestTableSql(table));
  ReplaceAll(sql, "%BEST_PER_MODEL%", BestPerModelView(table));
  return sql;
}

std::string TrustMigration() { return WithBest(kTrustMigration, kBestV8); }

// Version 9: an index in the tie rule's order (kFastestFirstSql), so that best_per_gpu's triggers
// find a group's fastest row through it; they sorted the whole group at every insert, and an import
// of 11,130 rows into one group took minutes.
std::string FastestIndexMigration() {
  return std::string("CREATE INDEX measurements_fastest ON measurements(template_id, gpu_id, size_key, timing_mode, "
                     "status, ") +
         kFastestFirstSql + ");";
}

[[noreturn]] void Refuse(const std::string& path, const std::string& problem) {
  throw BadDatabaseError("'" + path + "' is not a usable tuner database: " + problem +
                         ". The file was not modified; pass another --db or move it aside.");
}

std::uint32_t BigEndian(const unsigned char* bytes, int count) {
  std::uint32_t value = 0;
  for (int i = 0; i < count; ++i) value = (value << 8) | bytes[i];
  return value;
}

// SQLite's reports (quick_check rows span several lines) as one line.
std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  const auto last = text.find_last_not_of(' ');
  return last == std::string::npos ? std::string() : text.substr(0, last + 1);
}

void Migrate(sql::Connection& connection) {
  sql::Transaction transaction(connection);
  const auto version = connection.QueryInt("PRAGMA user_version");
  if (version >= kSchemaVersion) return;  // another process upgraded it meanwhile
  for (auto v = version; v < kSchemaVersion; ++v) connection.Execute(Migrations()[v]);
  connection.Execute("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  transaction.Commit();
}

void RunQuickCheck(sql::Connection& connection) {
  sql::Statement check(connection, "PRAGMA quick_check(5)");
  std::string problems;
  while (check.Step())
    if (check.Text(0) != "ok") problems += (problems.empty() ? "" : "; ") + OneLine(check.Text(0));
  if (!problems.empty()) Refuse(connection.path(), "corrupt (quick_check: " + problems + ")");
}

// The schema version, after the quick_check if asked; a version this tuner did not write is refused.
int Validate(sql::Connection& connection, IntegrityCheck check) {
  const std::string& path = connection.path();
  if (check == IntegrityCheck::kQuick) RunQuickCheck(connection);
  const auto version = connection.QueryInt("PRAGMA user_version");
  if (version == 0) Refuse(path, "it carries tuner's application id but schema version 0, which no tuner writes");
  if (version > kSchemaVersion)
    Refuse(path, "written by a newer tuner (schema version " + std::to_string(version) + ", this tuner reads up to " +
                     std::to_string(kSchemaVersion) + "); upgrade tuner");
  return static_cast<int>(version);
}

// Runs `open` and turns SQLite's corruption errors into a refusal of the file.
template <typename Open>
auto RefusingCorruption(const std::string& path, Open open) {
  try {
    return open();
  } catch (const sql::Error& e) {
    if (e.IsCorrupt()) Refuse(path, "corrupt (" + OneLine(e.sqlite_text()) + ")");
    throw;
  }
}

sql::Connection Connect(const std::string& path, sql::Connection::Mode mode) {
  sql::Connection connection(path, mode);
  connection.SetBusyTimeout(kBusyTimeoutMs);
  return connection;
}

void RequireFile(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found)
    throw std::runtime_error("no database at '" + path +
                             "': run 'tuner tune' to create one, or pass --db PATH or set TUNER_DB");
  if (status.type() == fs::file_type::directory)
    throw UsageError("'" + path + "' is a directory, not a tuner database file");
  if (status.type() != fs::file_type::regular)  // /dev/null, a FIFO: SQLite could neither read nor keep it
    throw UsageError("'" + path + "' is not a regular file (a device, a FIFO or a socket), not a tuner database file");
}

bool Exists(const std::string& path) {
  std::error_code ignored;
  return fs::exists(path, ignored);
}

bool MayWrite(const std::string& path) {
  return access(path.c_str(), W_OK) == 0 && access(fs::absolute(path).parent_path().c_str(), W_OK) == 0;
}

// How to read without changing what the file holds: never read-write, which would let SQLite fold
// a log into the file, and a WAL-mode file is left in WAL mode. SQLite reads a WAL-mode file through
// its -wal and -shm and creates them when they are missing.
sql::Connection::Mode ReadMode(const std::string& path, const FileHeader& header) {
  if (!header.wal_mode) return sql::Connection::Mode::kReadOnly;
  const std::string wal = path + "-wal";
  std::error_code error;
  // A writer has it open (or was killed): read through its files, as SQLite's locks allow.
  if (Exists(path + "-shm")) return sql::Connection::Mode::kReadOnly;
  // No writer: with no log, or an empty one, the main file holds everything.
  if (!Exists(wal) || fs::file_size(wal, error) == 0) return sql::Connection::Mode::kImmutable;
  // A log without its index: a reader who may write the folder lets SQLite build the index (the
  // -shm) beside it; the file itself is not written.
  if (MayWrite(path)) return sql::Connection::Mode::kReadOnly;
  throw std::runtime_error("database '" + path + "' has a write-ahead log (" + wal +
                           ") without its index (-shm); reading it would create one. Run 'tuner db upgrade --db " +
                           path + "' once, as a user who can write there, to fold the log into the file");
}

void RequireWritable(const std::string& path) {
  if (access(path.c_str(), W_OK) != 0)
    throw UsageError("cannot write database '" + path + "': " + std::strerror(errno) +
                     "; reading commands can use it, writing ones need a --db this user can write");
  const fs::path folder = fs::absolute(path).parent_path();
  if (access(folder.c_str(), W_OK) != 0)
    throw UsageError("cannot write database '" + path + "': its folder " + folder.string() + " is not writable (" +
                     std::strerror(errno) + ") and SQLite keeps its journal there; writing commands need a --db " +
                     "in a folder this user can write");
}

// PRAGMA journal_mode = WAL, retried on SQLITE_BUSY until the busy timeout: the switch writes the
// header inside a read transaction, which SQLite upgrades without waiting (the busy handler would
// risk a deadlock), so it fails at once while another writer commits or switches back at close.
void EnterWalMode(sql::Connection& connection) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (int attempt = 1;; ++attempt) {
    try {
      connection.Execute("PRAGMA journal_mode = WAL");
      return;
    } catch (const sql::Error& e) {
      if (!e.IsBusy() || std::chrono::steady_clock::now() >= deadline) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt, 20)));
  }
}

sql::Connection OpenExistingForWriting(const std::string& path) {
  CheckFileHeader(path);
  RequireWritable(path);
  return RefusingCorruption(path, [&] {
    // Checked on the writer's own connection: if the file is refused, closing it removes the -wal
    // and -shm that reading a WAL-mode file created.
    sql::Connection connection = Connect(path, sql::Connection::Mode::kReadWrite);
    const int version = Validate(connection, IntegrityCheck::kQuick);
    EnterWalMode(connection);
    // A first read in WAL mode creates the -wal and -shm and keeps them, with a shared lock, while
    // the connection lives: how readers (ReadMode) and other writers (LeaveWalMode) know it is here.
    connection.QueryInt("PRAGMA user_version");
    connection.Execute("PRAGMA foreign_keys = ON");
    if (version < kSchemaVersion) Migrate(connection);
    return connection;
  });
}

}  // namespace

const std::vector<std::string>& Migrations() {
  static const std::vector<std::string> migrations = {kSchemaV1,
                                                      WithBest(kSchemaV2, kBestV5),
                                                      kSchemaV3,
                                                      kSchemaV4,
                                                      WithBest(kSchemaV5, kBestV5),
                                                      kSchemaV6,
                                                      WithBest(kSchemaV7, kBestV7),
                                                      TrustMigration(),
                                                      FastestIndexMigration()};
  return migrations;
}

FileHeader CheckFileHeader(const std::string& path) {
  RequireFile(path);
  std::error_code error;
  const auto size = fs::file_size(path, error);
  if (error) throw std::runtime_error("cannot read database '" + path + "': " + error.message());
  if (size == 0) Refuse(path, "the file is empty (0 bytes)");
  unsigned char header[100] = {};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read database '" + path + "': " + std::strerror(errno));
  in.read(reinterpret_cast<char*>(header), sizeof header);
  const auto got = static_cast<std::uintmax_t>(in.gcount());
  if (std::string(reinterpret_cast<char*>(header), std::min<std::uintmax_t>(got, 16)) !=
      std::string("SQLite format 3\0", 16))
    Refuse(path, "not an SQLite database (unrecognised header)");
  if (got < sizeof header) Refuse(path, "truncated (" + std::to_string(size) + " bytes)");
  std::uint32_t page_size = BigEndian(header + 16, 2);
  if (page_size == 1) page_size = 65536;
  const std::uint32_t pages = BigEndian(header + 28, 4);
  // With a non-empty WAL, a checkpoint cut short may have written the header before the pages;
  // SQLite recovers that on open, so the page count is only checked without one.
  const bool pages_valid = BigEndian(header + 24, 4) == BigEndian(header + 92, 4) &&
                           !(fs::exists(path + "-wal", error) && fs::file_size(path + "-wal", error) > 0);
  if (size % page_size != 0 || (pages_valid && size < std::uintmax_t{pages} * page_size))
    Refuse(path, "truncated (" + std::to_string(size) + " bytes, pages of " + std::to_string(page_size) + ")");
  const auto application_id = static_cast<std::int32_t>(BigEndian(header + 68, 4));
  if (application_id != kApplicationId) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", static_cast<unsigned>(application_id));
    Refuse(path, application_id == 0
                     ? std::string("an SQLite database, but not one made by tuner")
                     : "an SQLite database of another application (application_id " + std::string(hex) + ")");
  }
  return {header[18] == 2 && header[19] == 2, static_cast<int>(BigEndian(header + 60, 4))};
}

ReadConnection OpenForReading(const std::string& path, IntegrityCheck check) {
  const FileHeader header = CheckFileHeader(path);
  return RefusingCorruption(path, [&] {
    const sql::Connection::Mode mode = ReadMode(path, header);
    const bool at_rest_in_wal_mode = mode == sql::Connection::Mode::kImmutable;
    sql::Connection connection = Connect(path, mode);
    const int version = Validate(connection, check);
    if (version == kSchemaVersion) return ReadConnection{std::move(connection), version, at_rest_in_wal_mode};
    // An older file is read through a copy upgraded in memory: reading never migrates the file.
    sql::Connection copy = sql::Connection::InMemoryCopy(connection);
    Migrate(copy);
    return ReadConnection{std::move(copy), version, at_rest_in_wal_mode};
  });
}

void CheckWritable(const std::string& path) {
  if (!Exists(path)) return;
  CheckFileHeader(path);
  RequireWritable(path);
}

sql::Connection OpenForWriting(const std::string& path) {
  if (Exists(path)) return OpenExistingForWriting(path);
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent);
  const std::string temporary = path + ".new-" + std::to_string(getpid()) + "-" + RandomHex(4);
  {
    // Left in rollback-journal mode: OpenExistingForWriting switches the live connection to WAL.
    sql::Connection connection = Connect(temporary, sql::Connection::Mode::kCreate);
    sql::Transaction transaction(connection);
    connection.Execute("PRAGMA application_id = " + std::to_string(kApplicationId));
    for (const std::string& migration : Migrations()) connection.Execute(migration);
    connection.Execute("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    transaction.Commit();
  }
  // link() fails if another process created the database meanwhile: theirs is kept.
  const bool linked = link(temporary.c_str(), path.c_str()) == 0;
  const int link_errno = errno;
  fs::remove(temporary);
  if (!linked && link_errno != EEXIST)
    throw std::runtime_error("cannot create database '" + path + "': " + std::strerror(link_errno));
  return OpenExistingForWriting(path);
}

bool LeaveWalMode(sql::Connection& connection) {
  connection.SetBusyTimeout(0);  // another connection open: give up at once, it will do it
  bool left = false;
  try {
    sql::Statement mode(connection, "PRAGMA journal_mode = DELETE");
    left = mode.Step() && mode.Text(0) == "delete";  // SQLite answers with the mode in force
  } catch (const sql::Error& e) {
    if (!e.IsBusy()) {
      connection.SetBusyTimeout(kBusyTimeoutMs);
      throw;
    }
  }
  connection.SetBusyTimeout(kBusyTimeoutMs);
  return left;
}

namespace {

bool NeedsTidying(const std::string& path) {
  return Exists(path + "-wal") || Exists(path + "-shm") || (Exists(path) && CheckFileHeader(path).wal_mode);
}

// One try on a connection of its own, closed on return: whether the file left WAL mode.
bool TidyOnce(const std::string& path) {
  sql::Connection connection(path, sql::Connection::Mode::kReadWrite);
  return LeaveWalMode(connection);
}

}  // namespace

void TidyAfterClose(const std::string& path) noexcept {
  constexpr int kAttempts = 4;
  try {
    std::minstd_rand random(static_cast<std::uint_fast32_t>(RandomSeed()));
    for (int attempt = 1; attempt <= kAttempts; ++attempt) {
      if (!NeedsTidying(path) || !MayWrite(path) || TidyOnce(path)) return;
      // Another connection is open: a long-lived one tidies when it closes; one closing now as
      // well backs off by another random time, so one of the two finds the other gone.
      std::this_thread::sleep_for(std::chrono::microseconds(random() % (2000 * attempt)));
    }
  } catch (const std::exception& e) {
    std::cerr << "warning: " << e.what() << " (the database stays in WAL mode; it is correct either way)\n";
  }
}

std::vector<std::string> FullCheck(sql::Connection& connection) {
  std::vector<std::string> problems;
  sql::Statement integrity(connection, "PRAGMA integrity_check");
  while (integrity.Step())
    if (integrity.Text(0) != "ok") problems.push_back(OneLine(integrity.Text(0)));
  sql::Statement keys(connection, "PRAGMA foreign_key_check");
  while (keys.Step())
    problems.push_back("row " + keys.Text(1) + " of " + keys.Text(0) + " refers to a missing " + keys.Text(2));
  const std::string kept = "SELECT * FROM best_per_gpu";
  const auto differing =
      connection.QueryInt("SELECT COUNT(*) FROM (SELECT * FROM (" + kept + " EXCEPT " + BestRankedSql() +
                          ") UNION ALL SELECT * FROM (" + BestRankedSql() + " EXCEPT " + kept + "))");
  if (differing > 0)
    problems.push_back(std::to_string(differing) + " row(s) of best_per_gpu disagree with the measurements");
  return problems;
}

}  // namespace tuner::db
