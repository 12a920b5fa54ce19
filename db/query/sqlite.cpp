#include "db/query/sqlite.h"
#include "base/random_hex.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <tuple>
#include <utility>

namespace tuner::db::sql {

bool Error::IsCorrupt() const { return code_ == SQLITE_CORRUPT || code_ == SQLITE_NOTADB; }
bool Error::IsBusy() const { return code_ == SQLITE_BUSY || code_ == SQLITE_LOCKED; }

namespace {

// "file:///abs/path?immutable=1", with every byte that could end or change the path escaped.
std::string ImmutableUri(const std::string& path) {
  std::string uri = "file://";
  for (const unsigned char c : std::filesystem::absolute(path).string()) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri + "?immutable=1";
}

// The size and modification time of a file, in nanoseconds (zeros when it is missing).
std::pair<long long, long long> FileStamp(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {0, 0};
  return {static_cast<long long>(st.st_size), st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec};
}

// Progress is a change of the main file or its -wal: another connection committed (or checkpointed).
struct BusyWait {
  using Stamp = std::tuple<std::pair<long long, long long>, std::pair<long long, long long>>;
  std::string path;
  std::chrono::milliseconds stall{0};
  std::chrono::steady_clock::time_point last_progress;
  Stamp stamp;
  std::minstd_rand random{static_cast<std::uint_fast32_t>(RandomSeed())};

  Stamp Now() const { return {FileStamp(path), FileStamp(path + "-wal")}; }
};

// SQLite's busy handler: true (retry) while the database changes within `stall`, after a random
// sleep growing to 100 ms at most (waiters polling at random moments take turns). SQLite's own busy
// timeout counts from the first try: at the end of a queue of hundreds of writers on a loaded
// machine it gave up while the others were still committing.
int WaitWhileOthersProgress(void* context, int count) {
  BusyWait& wait = *static_cast<BusyWait*>(context);
  const auto now = std::chrono::steady_clock::now();
  BusyWait::Stamp stamp = wait.Now();
  if (count == 0 || stamp != wait.stamp) {
    wait.stamp = std::move(stamp);
    wait.last_progress = now;
  } else if (now - wait.last_progress >= wait.stall) {
    return 0;
  }
  const int longest_ms = std::min(5 * (count + 1), 100);
  std::this_thread::sleep_for(std::chrono::microseconds(wait.random() % (longest_ms * 1000) + 200));
  return 1;
}

// The busy handlers' state by connection (sqlite3_busy_handler keeps only a pointer to it).
std::mutex busy_waits_mutex;
std::map<sqlite3*, std::unique_ptr<BusyWait>> busy_waits;

BusyWait* BusyWaitOf(sqlite3* db) {
  const std::lock_guard<std::mutex> lock(busy_waits_mutex);
  std::unique_ptr<BusyWait>& wait = busy_waits[db];
  if (!wait) wait = std::make_unique<BusyWait>();
  return wait.get();
}

void ForgetBusyWait(sqlite3* db) {
  const std::lock_guard<std::mutex> lock(busy_waits_mutex);
  busy_waits.erase(db);
}

}  // namespace

Connection::Connection(const std::string& path, Mode mode) : path_(path) {
  int flags = mode == Mode::kReadOnly || mode == Mode::kImmutable ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (mode == Mode::kCreate) flags |= SQLITE_OPEN_CREATE;
  if (mode == Mode::kImmutable) flags |= SQLITE_OPEN_URI;
  const std::string name = mode == Mode::kImmutable ? ImmutableUri(path) : path;
  const int rc = sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string text = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw Error("cannot open database " + path + ": " + text, rc & 0xff, rc, text);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Connection Connection::InMemoryCopy(Connection& source) {
  Connection copy(":memory:", Mode::kReadWrite);
  copy.path_ = source.path_;
  sqlite3_backup* backup = sqlite3_backup_init(copy.db_, "main", source.db_, "main");
  if (!backup) copy.Throw(sqlite3_errcode(copy.db_), "copying into memory");
  sqlite3_backup_step(backup, -1);
  const int rc = sqlite3_backup_finish(backup);
  if (rc != SQLITE_OK) copy.Throw(rc, "copying into memory");
  return copy;
}

Connection::~Connection() {
  if (db_ && sqlite3_close_v2(db_) != SQLITE_OK)
    std::cerr << "warning: closing database " << path_ << ": " << sqlite3_errmsg(db_) << "\n";
  if (db_) ForgetBusyWait(db_);
}

Connection::Connection(Connection&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (db_) {
      sqlite3_close_v2(db_);
      ForgetBusyWait(db_);
    }
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

void Connection::Throw(int rc, const std::string& what) const {
  const std::string text = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  throw Error(what + " on " + path_ + ": " + text, rc & 0xff, rc, text);
}

void Connection::Execute(const std::string& sql) {
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) Throw(rc, "'" + sql.substr(0, 60) + "'");
}

std::int64_t Connection::QueryInt(const std::string& sql) {
  Statement statement(*this, sql);
  return statement.Step() ? statement.Int64(0) : 0;
}

std::int64_t Connection::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }
bool Connection::IsReadOnly() const { return sqlite3_db_readonly(db_, "main") == 1; }
int Connection::Changes() const { return sqlite3_changes(db_); }
// `stall_ms`: how long the wait may go on without another connection changing the database.
void Connection::SetBusyTimeout(int stall_ms) {
  if (stall_ms <= 0) {
    sqlite3_busy_handler(db_, nullptr, nullptr);
    return;
  }
  BusyWait* wait = BusyWaitOf(db_);
  wait->path = path_;
  wait->stall = std::chrono::milliseconds(stall_ms);
  sqlite3_busy_handler(db_, WaitWhileOthersProgress, wait);
}

Statement::Statement(Connection& connection, const std::string& sql) : connection_(&connection) {
  const int rc = sqlite3_prepare_v2(connection.handle(), sql.c_str(), -1, &stmt_, nullptr);
  if (rc != SQLITE_OK) connection.Throw(rc, "preparing '" + sql.substr(0, 60) + "'");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : connection_(other.connection_), stmt_(std::exchange(other.stmt_, nullptr)) {}

namespace {
void CheckBind(const Connection& connection, int rc, int index) {
  if (rc != SQLITE_OK) connection.Throw(rc, "binding parameter " + std::to_string(index));
}
}  // namespace

Statement& Statement::Bind(int index, int value) {
  CheckBind(*connection_, sqlite3_bind_int(stmt_, index, value), index);
  return *this;
}
Statement& Statement::Bind(int index, std::int64_t value) {
  CheckBind(*connection_, sqlite3_bind_int64(stmt_, index, value), index);
  return *this;
}
Statement& Statement::Bind(int index, double value) {
  CheckBind(*connection_, sqlite3_bind_double(stmt_, index, value), index);
  return *this;
}
Statement& Statement::Bind(int index, const std::string& value) {
  CheckBind(*connection_,
            sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT), index);
  return *this;
}
Statement& Statement::BindNull(int index) {
  CheckBind(*connection_, sqlite3_bind_null(stmt_, index), index);
  return *this;
}

bool Statement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  connection_->Throw(rc, std::string("running '") + std::string(sqlite3_sql(stmt_)).substr(0, 60) + "'");
}

void Statement::Run() {
  try {
    while (Step()) {
    }
  } catch (...) {
    Reset();  // a failed statement left pending would block the rollback of its transaction
    throw;
  }
  Reset();
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
int Statement::Int(int column) const { return sqlite3_column_int(stmt_, column); }
std::int64_t Statement::Int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::Double(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text),
                            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
              : std::string();
}

Transaction::Transaction(Connection& connection) : connection_(connection) { connection_.Execute("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!open_) return;
  try {
    connection_.Execute("ROLLBACK");
  } catch (const std::exception& e) {
    std::cerr << "warning: rollback failed: " << e.what() << "\n";
  }
}

void Transaction::Commit() {
  connection_.Execute("COMMIT");
  open_ = false;
}

}  // namespace tuner::db::sql
