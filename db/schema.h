// The database schema, its migrations, and opening a file safely: a file that is not ours, is
// corrupt or comes from a newer tuner is refused with BadDatabaseError and never modified.
// db/README.md documents the tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/sqlite.h"

namespace tuner::db {

inline constexpr std::int32_t kApplicationId = 0x54554E52;  // "TUNR" in PRAGMA application_id
inline constexpr int kSchemaVersion = 4;                   // PRAGMA user_version
inline constexpr int kBusyTimeoutMs = 30000;

// migrations()[v] turns schema version v into v + 1; version 0 is an empty file.
const std::vector<std::string>& Migrations();

// Refuses (BadDatabaseError, naming the path and the problem) a file that is empty, not SQLite,
// truncated below its header, or an SQLite database of another application. Reads only.
void CheckFileHeader(const std::string& path);

// Opens an existing database after CheckFileHeader, a quick_check and a version check. In
// read-write mode an older schema is upgraded in one transaction; in read-only mode an older
// schema is upgraded first if the file is writable. Missing file: std::runtime_error.
sql::Connection OpenExisting(const std::string& path, bool read_only);

// Opens `path` for writing, creating it (and its parent folders) with the current schema if it
// does not exist. Creation is atomic: the file is built beside it and linked into place.
sql::Connection OpenOrCreate(const std::string& path);

// Full integrity check (PRAGMA integrity_check + foreign_key_check): the problems found, or empty.
std::vector<std::string> FullCheck(sql::Connection& connection);

}  // namespace tuner::db
