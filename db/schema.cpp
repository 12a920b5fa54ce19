#include "db/schema.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

#include "tuner/errors.h"

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
const char* kSchemaV2 = R"sql(
ALTER TABLE sweeps ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE templates ADD COLUMN first_seen TEXT NOT NULL DEFAULT '';
UPDATE sweeps SET uid = lower(hex(randomblob(16))) WHERE uid = '';
CREATE UNIQUE INDEX sweeps_uid ON sweeps(uid);
ALTER TABLE measurements ADD COLUMN time_ms_spread REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN spill_bytes INTEGER NOT NULL DEFAULT 0;
CREATE INDEX measurements_best ON measurements(template_id, status, size_key, time_ms_median);
CREATE VIEW best_per_model AS
SELECT * FROM (
  SELECT m.*, g.name AS gpu_name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes,
         t.name AS template_name, t.hash AS template_hash,
         ROW_NUMBER() OVER (
           PARTITION BY g.name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes, m.template_id,
                        m.size_key
           ORDER BY m.time_ms_median, m.id) AS rank_in_model
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

[[noreturn]] void Refuse(const std::string& path, const std::string& problem) {
  throw BadDatabaseError("'" + path + "' is not a usable tuner database: " + problem +
                         ". The file was not modified; pass another --db or move it aside.");
}

std::uint32_t BigEndian(const unsigned char* bytes, int count) {
  std::uint32_t value = 0;
  for (int i = 0; i < count; ++i) value = (value << 8) | bytes[i];
  return value;
}

void Migrate(sql::Connection& connection) {
  sql::Transaction transaction(connection);
  const auto version = connection.QueryInt("PRAGMA user_version");
  if (version >= kSchemaVersion) return;  // another process upgraded it meanwhile
  for (auto v = version; v < kSchemaVersion; ++v) connection.Execute(Migrations()[v]);
  connection.Execute("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  transaction.Commit();
}

// quick_check and the version, on a read-only connection; corruption becomes BadDatabaseError.
std::int64_t Validate(sql::Connection& connection) {
  const std::string& path = connection.path();
  try {
    sql::Statement check(connection, "PRAGMA quick_check(5)");
    std::string problems;
    while (check.Step())
      if (check.Text(0) != "ok") problems += (problems.empty() ? "" : "; ") + check.Text(0);
    if (!problems.empty()) Refuse(path, "corrupt (quick_check: " + problems + ")");
    const auto version = connection.QueryInt("PRAGMA user_version");
    if (version > kSchemaVersion)
      Refuse(path, "written by a newer tuner (schema version " + std::to_string(version) +
                       ", this tuner reads up to " + std::to_string(kSchemaVersion) + "); upgrade tuner");
    return version;
  } catch (const sql::Error& e) {
    if (e.IsCorrupt()) Refuse(path, std::string("corrupt (") + e.what() + ")");
    throw;
  }
}

sql::Connection Connect(const std::string& path, sql::Connection::Mode mode) {
  sql::Connection connection(path, mode);
  connection.SetBusyTimeout(kBusyTimeoutMs);
  return connection;
}

}  // namespace

const std::vector<std::string>& Migrations() {
  static const std::vector<std::string> migrations = {kSchemaV1, kSchemaV2, kSchemaV3, kSchemaV4};
  return migrations;
}

void CheckFileHeader(const std::string& path) {
  std::error_code error;
  const auto size = fs::file_size(path, error);
  if (error) throw std::runtime_error("cannot read database '" + path + "': " + error.message());
  if (size == 0) Refuse(path, "the file is empty (0 bytes)");
  unsigned char header[100] = {};
  std::ifstream in(path, std::ios::binary);
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
    Refuse(path, application_id == 0 ? std::string("an SQLite database, but not one made by tuner")
                                     : "an SQLite database of another application (application_id " +
                                           std::string(hex) + ")");
  }
}

sql::Connection OpenExisting(const std::string& path, bool read_only) {
  if (!fs::exists(path))
    throw std::runtime_error("no database at '" + path +
                             "': run 'tuner tune' to create one, or pass --db PATH or set TUNER_DB");
  CheckFileHeader(path);
  std::int64_t version = 0;
  {
    sql::Connection probe = Connect(path, sql::Connection::Mode::kReadOnly);
    version = Validate(probe);
    if (read_only && version == kSchemaVersion) return probe;
  }
  if (read_only && access(path.c_str(), W_OK) != 0)
    throw std::runtime_error("database '" + path + "' has schema version " + std::to_string(version) +
                             " and is read-only; make it writable once so tuner can upgrade it to " +
                             std::to_string(kSchemaVersion));
  sql::Connection connection = Connect(path, sql::Connection::Mode::kReadWrite);
  connection.Execute("PRAGMA journal_mode = WAL");
  connection.Execute("PRAGMA foreign_keys = ON");
  if (version < kSchemaVersion) Migrate(connection);
  if (!read_only) return connection;
  return Connect(path, sql::Connection::Mode::kReadOnly);
}

sql::Connection OpenOrCreate(const std::string& path) {
  if (fs::exists(path)) return OpenExisting(path, false);
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent);
  const std::string temporary =
      path + ".new-" + std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
  {
    sql::Connection connection = Connect(temporary, sql::Connection::Mode::kCreate);
    sql::Transaction transaction(connection);
    connection.Execute("PRAGMA application_id = " + std::to_string(kApplicationId));
    for (const std::string& migration : Migrations()) connection.Execute(migration);
    connection.Execute("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    transaction.Commit();
    connection.Execute("PRAGMA journal_mode = WAL");
  }
  // link() fails if another process created the database meanwhile: theirs is kept.
  const bool linked = link(temporary.c_str(), path.c_str()) == 0;
  const int link_errno = errno;
  fs::remove(temporary);
  if (!linked && link_errno != EEXIST)
    throw std::runtime_error("cannot create database '" + path + "': " + std::strerror(link_errno));
  return OpenExisting(path, false);
}

std::vector<std::string> FullCheck(sql::Connection& connection) {
  std::vector<std::string> problems;
  sql::Statement integrity(connection, "PRAGMA integrity_check");
  while (integrity.Step())
    if (integrity.Text(0) != "ok") problems.push_back(integrity.Text(0));
  sql::Statement keys(connection, "PRAGMA foreign_key_check");
  while (keys.Step())
    problems.push_back("row " + keys.Text(1) + " of " + keys.Text(0) + " refers to a missing " + keys.Text(2));
  return problems;
}

}  // namespace tuner::db
