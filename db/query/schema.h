// The database schema, its migrations, and opening a file safely: a file that is not ours, is
// corrupt or comes from a newer tuner is refused with BadDatabaseError and never modified.
// db/README.md documents the tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/query/sqlite.h"

namespace tuner::db {

inline constexpr std::int32_t kApplicationId = 0x54554E52;  // "TUNR" in PRAGMA application_id
inline constexpr int kSchemaVersion = 9;                    // PRAGMA user_version
// The version whose migration adds the columns of ties and toolchains (tie_ms, tie_rank, toolchain,
// revalidation): kTrustMigration in schema.cpp.
inline constexpr int kTrustSchemaVersion = 8;
inline constexpr int kBusyTimeoutMs = 30000;

// migrations()[v] turns schema version v into v + 1; version 0 is an empty file.
const std::vector<std::string>& Migrations();

// What an open for reading checks besides the header and the version: the tool runs SQLite's
// quick_check (it reads every page: ~30 ms for 30,000 measurements); the application library,
// which must open in a few milliseconds, relies on SQLite noticing a corrupt page when it reads it.
enum class IntegrityCheck { kQuick, kHeaderAndVersion };

struct FileHeader {
  bool wal_mode = false;   // the file was last written in WAL mode (header bytes 18 and 19 are 2)
  int schema_version = 0;  // PRAGMA user_version as the main file holds it (a -wal may hold a newer one)
};

// Refuses (BadDatabaseError, naming the path and the problem) a file that is empty, not SQLite,
// truncated below its header, or an SQLite database of another application. Reads only. A missing
// file is a std::runtime_error, a directory a UsageError.
FileHeader CheckFileHeader(const std::string& path);

// A connection for reading and the schema version of the file behind it.
struct ReadConnection {
  sql::Connection connection;
  int file_schema_version = 0;
  // In WAL mode with no writer's -shm or log beside it: left so, a reader does not tidy it.
  bool at_rest_in_wal_mode = false;
};

// Opens an existing database for reading without writing anything: no migration, no journal-mode
// change, no -wal, -shm or -journal beside it, so a file this user cannot write (in a folder this
// user cannot write) reads like any other. A file of an older schema is read through a copy
// upgraded in memory. Refused (BadDatabaseError, the file untouched): everything CheckFileHeader
// refuses, corruption, schema version 0 and newer versions. A directory: UsageError. Missing file
// or I/O: std::runtime_error.
ReadConnection OpenForReading(const std::string& path, IntegrityCheck check);

// Opens `path` for writing, creating it (and its parent folders) with the current schema if it
// does not exist, and upgrading an older schema in one transaction. Creation is atomic: the file
// is built beside it and linked into place. Refused as OpenForReading, and a file or folder this
// user cannot write is a UsageError, before anything is changed.
sql::Connection OpenForWriting(const std::string& path);

// What OpenForWriting would refuse, checked without writing anything (a missing file passes: it
// would be created), so a command can refuse a bad database before any other work.
void CheckWritable(const std::string& path);

// Puts a writer's file back into rollback-journal mode if no other connection has it open (SQLite
// refuses at once otherwise; the next writer to close tries again): a file left in WAL mode can
// only be read by someone who may create its -wal and -shm beside it. Returns whether it did.
bool LeaveWalMode(sql::Connection& connection);

// Called after a connection to `path` has closed, a writer's or a reader's (but for a file the reader
// found at rest in WAL mode, which it leaves as it found it), so that the file at rest is one
// self-contained file in rollback-journal mode: if it is in WAL mode or has a -wal or -shm beside it,
// and this user may write it and its folder, folds the log in and leaves WAL mode, unless another
// connection still has the file open (that one does it when it closes). Two connections closing at
// once each see the other, so it tries a few times. Never throws: a failure is a warning.
void TidyAfterClose(const std::string& path) noexcept;

// Full integrity check (PRAGMA integrity_check + foreign_key_check + the best rows kept by
// triggers): the problems found, or empty.
std::vector<std::string> FullCheck(sql::Connection& connection);

}  // namespace tuner::db
