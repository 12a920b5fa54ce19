// A small RAII layer over SQLite in the manner of SQLiteCpp: a move-only connection and statement, a
// transaction that rolls back in its destructor unless committed, and one exception type that keeps
// SQLite's error codes. <sqlite3.h> stays out of this header.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

struct sqlite3;
struct sqlite3_stmt;

namespace tuner::db::sql {

// Any SQLite failure: the message names the call, the database and SQLite's text.
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, int code, int extended_code, std::string sqlite_text)
      : std::runtime_error(message), code_(code), extended_code_(extended_code), sqlite_text_(std::move(sqlite_text)) {}
  int code() const { return code_; }  // primary result code: SQLITE_BUSY, SQLITE_CORRUPT, ...
  int extended_code() const { return extended_code_; }
  const std::string& sqlite_text() const { return sqlite_text_; }  // SQLite's own words, one line
  bool IsCorrupt() const;                                          // SQLITE_CORRUPT or SQLITE_NOTADB
  bool IsBusy() const;  // SQLITE_BUSY or SQLITE_LOCKED: another connection holds a lock

 private:
  int code_;
  int extended_code_;
  std::string sqlite_text_;
};

class Connection {
 public:
  // kImmutable reads a file that nobody changes while it is open: no locks and no side files
  // (SQLite's `immutable=1`), so it also reads a WAL-mode file that has no -wal and whose folder
  // this user cannot write.
  enum class Mode { kReadOnly, kImmutable, kReadWrite, kCreate };

  Connection(const std::string& path, Mode mode);
  // A private in-memory database holding a copy of `source` (SQLite's backup API); path() stays
  // the source's, for messages. Changes to the copy never reach the file.
  static Connection InMemoryCopy(Connection& source);
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more statements that return no rows we need.
  void Execute(const std::string& sql);
  // The first column of the first row of `sql` as an integer (PRAGMA user_version, COUNT(*)).
  std::int64_t QueryInt(const std::string& sql);
  std::int64_t LastInsertRowId() const;
  bool IsReadOnly() const;  // opened read-only, or SQLite fell back to read-only (no write permission)
  int Changes() const;
  // How a statement that finds the database locked by another connection waits: it retries while
  // the database keeps changing (the main file or its -wal: others are committing), however long the
  // queue, and gives up with SQLITE_BUSY once `stall_ms` pass without a change (the store's
  // kBusyTimeoutMs: 30 s). Not a limit on the whole wait, as SQLite's own busy timeout is. 0 or less: fails at once.
  void SetBusyTimeout(int stall_ms);
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Throws Error for a failed call `what` with result code `rc`.
  [[noreturn]] void Throw(int rc, const std::string& what) const;

 private:
  Connection() = default;
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Connection& connection, const std::string& sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  // Parameters are numbered from 1, as in SQLite.
  Statement& Bind(int index, int value);
  Statement& Bind(int index, std::int64_t value);
  Statement& Bind(int index, double value);
  Statement& Bind(int index, const std::string& value);
  Statement& Bind(int index, const char* value) { return Bind(index, std::string(value)); }
  Statement& BindNull(int index);

  bool Step();  // true while a row is available
  void Run();   // steps to the end and resets, for statements that return no rows
  void Reset();

  // Columns are numbered from 0.
  bool IsNull(int column) const;
  int Int(int column) const;
  std::int64_t Int64(int column) const;
  double Double(int column) const;
  std::string Text(int column) const;

 private:
  Connection* connection_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE: the write lock is taken at the start, so with a busy timeout two writers wait for
// each other instead of failing with SQLITE_BUSY half-way through.
class Transaction {
 public:
  explicit Transaction(Connection& connection);
  ~Transaction();  // rolls back unless Commit() was called
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void Commit();

 private:
  Connection& connection_;
  bool open_ = true;
};

}  // namespace tuner::db::sql
