// tuner db check | info | export | import | merge | upgrade through the built binary, and every
// reading command on a database this user cannot write.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "db/query/schema.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "run_unprivileged.h"

namespace tuner {
namespace {

using db::testing::ReadBytes;
using db::testing::TempDir;

using testing::RunTuner;

// A database with one sweep of `count` candidates on the GPU `uuid`.
std::string MakeDatabase(const TempDir& dir, const std::string& name, const std::string& uuid, int count,
                         const std::string& kernel = "transpose") {
  const std::string path = dir.File(name);
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(db::testing::SampleGpu(uuid));
  const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({kernel, "h1", ""}), db::testing::SampleSweep());
  for (int i = 0; i < count; ++i)
    store.AddMeasurement(sweep, db::testing::SampleMeasurement(i + 1, 1.0 + i, i % 3 ? "ok" : "invalid"));
  store.FinishSweep(sweep, "done");
  return path;
}

std::string Export(const std::string& db) { return RunTuner("db export --db " + db).out; }

// Readers leave a WAL-mode file (another program's, or one tuner left before schema 5) as they
// found it: the same bytes, still in WAL mode, nothing beside it.
TEST(DbCommands, ReadersLeaveAWalModeFileAsTheyFoundIt) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 6, "scale");  // not a shipped template: current
  db::testing::SetJournalMode(db, "wal");
  const std::string before = ReadBytes(db);
  for (const std::string& command : {"db info --db " + db, "db check --db " + db, "db export --db " + db,
                                     "query scale --size 8192x8192 --db " + db,
                                     "db merge " + db + " --db " + dir.File("target.db")}) {
    const testing::CliResult r = RunTuner(command);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_EQ(ReadBytes(db), before) << command;
    EXPECT_TRUE(db::CheckFileHeader(db).wal_mode) << command;
    EXPECT_TRUE(db::testing::SideFiles(db).empty()) << command;
  }
}

TEST(DbCommands, InfoAndCheck) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 6);
  const testing::CliResult info = RunTuner("db info --json --db " + db);
  ASSERT_EQ(info.exit_code, 0);
  const auto doc = nlohmann::json::parse(info.out);
  ASSERT_EQ(doc["counts"].size(), 2u);
  EXPECT_EQ(doc["counts"][0]["status"], "invalid");
  EXPECT_EQ(doc["counts"][0]["count"], 2);
  EXPECT_EQ(doc["counts"][1]["count"], 4);
  const testing::CliResult check = RunTuner("db check --db " + db);
  EXPECT_EQ(check.exit_code, 0);
  EXPECT_EQ(check.out, db + ": ok (schema version " + std::to_string(db::kSchemaVersion) + ")\n");
  const auto json = nlohmann::json::parse(RunTuner("db check --json --db " + db).out);
  EXPECT_EQ(json["ok"], true);
  EXPECT_EQ(json["problems"].size(), 0u);
}

// The other side of InfoAndCheck: a database that SQLite's quick_check passes (no page is broken)
// but whose rows refer to a missing sweep fails `db check`, and only `db check`.
TEST(DbCommands, CheckFindsRowsReferringToNothing) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 3);
  {
    db::sql::Connection connection(db, db::sql::Connection::Mode::kReadWrite);
    connection.Execute("PRAGMA foreign_keys = OFF; DELETE FROM sweeps");
  }
  const testing::CliResult check = RunTuner("db check --db " + db);
  EXPECT_EQ(check.exit_code, 4);
  EXPECT_EQ(check.out.find(": ok"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("problem: row 1 of measurements refers to a missing sweeps"), std::string::npos)
      << check.out;
  const auto json = nlohmann::json::parse(RunTuner("db check --json --db " + db).out);
  EXPECT_EQ(json["ok"], false);
  EXPECT_EQ(json["problems"].size(), 3u);
  EXPECT_EQ(RunTuner("db info --db " + db).exit_code, 0);
}

// Reading commands and the files they must leave alone.
struct ReadOnlyCase {
  const char* what;
  std::string args;
  int exit_code;
};

// `args` as the user nobody (root ignores file modes), with folders it may write for what the
// command writes. Empty `ran` reason: it ran.
testing::CliResult RunTunerAsNobody(const std::string& args, const std::string& writable, std::string* not_run) {
  const auto run = testing::RunUnprivileged([&] {
    const testing::CliResult r = RunTuner(
        args, "HOME=" + writable + " XDG_CACHE_HOME=" + writable + "/cache XDG_DATA_HOME=" + writable + "/data");
    return std::to_string(r.exit_code) + '\n' + r.err + '\0' + r.out;
  });
  testing::CliResult result;
  if (!run.ran) {
    *not_run = run.result;
    return result;
  }
  const auto newline = run.result.find('\n');
  const auto nul = run.result.find('\0');
  if (newline == std::string::npos || nul == std::string::npos) {
    result.err = run.result;
    return result;
  }
  result.exit_code = std::stoi(run.result.substr(0, newline));
  result.err = run.result.substr(newline + 1, nul - newline - 1);
  result.out = run.result.substr(nul + 1);
  return result;
}

// A folder the user nobody may write, inside `dir`.
std::string WritableByNobody(const TempDir& dir) {
  const std::string folder = dir.File("nobody");
  std::filesystem::create_directories(folder);
  if (chown(folder.c_str(), testing::kNobody, testing::kNobody) != 0 && geteuid() == 0) ADD_FAILURE() << "chown";
  return folder;
}

// A results file at 0444 in a folder this user cannot write (a shared or installed
// database) works for every reading command, in either journal mode, and is left as it was.
TEST(DbCommands, EveryReadingCommandWorksOnAFileThisUserCannotWrite) {
  for (const std::string mode : {"delete", "wal"}) {
    TempDir dir;
    const std::string db = MakeDatabase(dir, "ro.db", "GPU-A", 6, "user_kernel");
    db::testing::SetJournalMode(db, mode);
    ASSERT_EQ(RunTuner("db export -o " + dir.File("ro.jsonl") + " --db " + db).exit_code, 0);
    ASSERT_EQ(chmod(db.c_str(), 0444), 0);
    const std::string before = ReadBytes(db);
    const std::string out = WritableByNobody(dir);
    const std::vector<ReadOnlyCase> cases = {
        {"db info", "db info --db " + db, 0},
        {"db check", "db check --db " + db, 0},
        {"db export", "db export --db " + db, 0},
        {"query", "query user_kernel --size 8192x8192 --json --db " + db, 0},
        {"report", "report --db " + db + " -o " + out + "/report.html", 0},
        {"simulate", "simulate user_kernel --size 8192x8192 --runs 2 --db " + db, 0},
        {"merge as the source", "db merge " + db + " --db " + out + "/merged.db", 0},
        {"import of a read-only export", "db import " + dir.File("ro.jsonl") + " --db " + out + "/imported.db", 0},
        {"import into it", "db import " + dir.File("ro.jsonl") + " --db " + db, 2},
        {"merge into it", "db merge " + out + "/merged.db --db " + db, 2},
        {"upgrade", "db upgrade --db " + db, 2},
    };
    for (const ReadOnlyCase& c : cases) {
      std::string not_run;
      const testing::CliResult r = RunTunerAsNobody(c.args, out, &not_run);
      if (!not_run.empty()) GTEST_SKIP() << "needs a user without privileges: " << not_run;
      EXPECT_EQ(r.exit_code, c.exit_code) << mode << ", " << c.what << ": " << r.err;
      if (c.exit_code == 2) {
        EXPECT_NE(r.err.find("cannot write database '" + db + "'"), std::string::npos) << r.err;
      }
      EXPECT_EQ(ReadBytes(db), before) << mode << ", " << c.what;
      EXPECT_TRUE(db::testing::SideFiles(db).empty()) << mode << ", " << c.what;
    }
    EXPECT_EQ(Export(out + "/merged.db"), Export(db));
  }
}

// Refused files keep their bytes, gain no side files, and the message is one line.
TEST(DbCommands, RefusedDatabasesAreLeftAsTheyWere) {
  TempDir dir;
  const std::string good = MakeDatabase(dir, "good.db", "GPU-A", 200);
  std::string corrupt = ReadBytes(good);
  for (std::size_t i = 4096; i < corrupt.size(); i += 3) corrupt[i] = static_cast<char>(0xA5);
  std::string newer = ReadBytes(good);
  newer[63] = 99;  // user_version
  std::string zero = newer;
  zero[63] = 0;
  const std::vector<std::pair<std::string, std::string>> files = {
      {"corrupt", corrupt}, {"newer", newer}, {"zero", zero}};
  db::testing::WriteBytes(dir.File("none.jsonl"), "");
  for (const auto& [name, bytes] : files) {
    for (const std::string mode : {"delete", "wal"}) {
      const std::string db = dir.File(name + "-" + mode + ".db");
      db::testing::WriteBytes(db, mode == "wal" ? bytes.substr(0, 18) + "\x02\x02" + bytes.substr(20) : bytes);
      const std::string before = ReadBytes(db);
      for (const std::string& args : {"db info --db " + db, "db check --db " + db, "db export --db " + db,
                                      "query scale --size 8192x8192 --db " + db, "db merge " + db + " --db " + good,
                                      "db import " + dir.File("none.jsonl") + " --db " + db}) {
        const testing::CliResult r = RunTuner(args);
        EXPECT_EQ(r.exit_code, 4) << args << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
        EXPECT_EQ(ReadBytes(db), before) << args;
        EXPECT_TRUE(db::testing::SideFiles(db).empty()) << args;
      }
    }
  }
}

// A name with a newline split the message over two lines.
TEST(DbCommands, MessagesStayOneLineWhateverTheName) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "x.db", "GPU-A", 3, "user_kernel");
  for (const std::string& args :
       std::vector<std::string>{"db merge \"$(printf 'a\\nb')\"", "db \"$(printf 'a\\nb')\"",
                                "export t4 user_kernel --size 8192x8192 --device \"$(printf 'a\\nb')\"",
                                "query user_kernel --size 8192x8192 --device \"$(printf 'a\\nb')\""}) {
    SCOPED_TRACE(args);
    const testing::CliResult r = RunTuner(args + " --db " + db);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("a\\nb"), std::string::npos) << r.err;
  }
}

TEST(DbCommands, MergeOfAMissingFileNamesIt) {
  TempDir dir;
  const testing::CliResult r = RunTuner("db merge " + dir.File("nonexistent.db") + " --db " + dir.File("a.db"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no database at '" + dir.File("nonexistent.db") + "'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--db"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("a.db")));
}

TEST(DbCommands, ADirectoryAsTheDatabaseIsBadInput) {
  TempDir dir;
  const std::string folder = dir.File("folder");
  std::filesystem::create_directories(folder);
  const std::string good = MakeDatabase(dir, "good.db", "GPU-A", 2);
  db::testing::WriteBytes(dir.File("rows.jsonl"), Export(good));
  for (const std::string& args :
       {"db info --db " + folder, "db check --db " + folder, "db export --db " + folder, "db upgrade --db " + folder,
        "db import " + dir.File("rows.jsonl") + " --db " + folder, "db merge " + good + " --db " + folder,
        "db merge " + folder + " --db " + good, "query transpose --size 8192x8192 --db " + folder,
        "report --db " + folder + " -o " + dir.File("r.html"), "simulate transpose --db " + folder}) {
    const testing::CliResult r = RunTuner(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find("'" + folder + "' is a directory"), std::string::npos) << args << ": " << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(folder)) << args;
  }
}

TEST(DbCommands, UpgradeLeavesOneFileAtTheCurrentSchema) {
  TempDir dir;
  const std::string db = dir.File("v4.db");
  std::filesystem::copy_file(TUNER_FIXTURES_DIR "/schema_v4.db", db);
  ASSERT_TRUE(db::CheckFileHeader(db).wal_mode);
  const std::string rows = Export(db);  // read through an upgrade in memory
  testing::CliResult r = RunTuner("db info --db " + db);
  EXPECT_NE(r.out.find("schema version 4, read through an upgrade"), std::string::npos) << r.out;
  r = RunTuner("db upgrade --db " + db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, db + ": schema version 4, upgraded to " + std::to_string(db::kSchemaVersion) + "\n");
  EXPECT_EQ(db::CheckFileHeader(db).schema_version, db::kSchemaVersion);
  EXPECT_FALSE(db::CheckFileHeader(db).wal_mode);
  EXPECT_TRUE(db::testing::SideFiles(db).empty());
  EXPECT_EQ(Export(db), rows);
  r = RunTuner("db upgrade --db " + db);
  EXPECT_EQ(r.out, db + ": schema version " + std::to_string(db::kSchemaVersion) + "\n");
  r = RunTuner("db upgrade --db " + dir.File("missing.db"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("missing.db")));
}

TEST(DbCommands, CheckRefusesABadFileWithExitFour) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 200);
  std::string bytes = ReadBytes(db);
  bytes.resize(bytes.size() - 4096);
  db::testing::WriteBytes(dir.File("cut.db"), bytes);
  EXPECT_EQ(RunTuner("db check --db " + dir.File("cut.db")).exit_code, 4);
  EXPECT_EQ(ReadBytes(dir.File("cut.db")), bytes);
  db::testing::WriteBytes(dir.File("zero.db"), "");
  EXPECT_EQ(RunTuner("db info --db " + dir.File("zero.db")).exit_code, 4);
  EXPECT_EQ(RunTuner("db merge " + dir.File("zero.db") + " --db " + db).exit_code, 4);
  EXPECT_EQ(ReadBytes(dir.File("zero.db")), "");
}

TEST(DbCommands, ExportImportRoundTrip) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 5);
  ASSERT_EQ(RunTuner("db export -o " + dir.File("a.jsonl") + " --db " + db).exit_code, 0);
  ASSERT_EQ(RunTuner("db import " + dir.File("a.jsonl") + " --db " + dir.File("new/b.db")).exit_code, 0);
  EXPECT_EQ(Export(dir.File("new/b.db")), Export(db));
  EXPECT_EQ(RunTuner("db import " + dir.File("a.jsonl") + " --db " + dir.File("new/b.db")).exit_code, 0);
  EXPECT_EQ(Export(dir.File("new/b.db")), Export(db));
}

TEST(DbCommands, BadImportChangesNothing) {
  TempDir dir;
  const std::string good = Export(MakeDatabase(dir, "a.db", "GPU-A", 2));
  db::testing::WriteBytes(dir.File("bad.jsonl"), good + "{\"gpu\": {}}\n");
  EXPECT_EQ(RunTuner("db import " + dir.File("bad.jsonl") + " --db " + dir.File("b.db")).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("b.db")));
  EXPECT_EQ(RunTuner("db import " + dir.File("missing.jsonl") + " --db " + dir.File("b.db")).exit_code, 2);
  EXPECT_EQ(RunTuner("db").exit_code, 2);
  EXPECT_EQ(RunTuner("db frobnicate").exit_code, 2);
}

// `-o` naming the database (or a symbolic or hard link to it) destroyed it with exit 0.
TEST(DbCommands, NoOutputReplacesTheDatabase) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "x.db", "GPU-A", 3, "user_kernel");  // a kernel with no template
  std::filesystem::create_symlink(db, dir.File("soft.db"));
  std::filesystem::create_hard_link(db, dir.File("hard.db"));
  const std::string before = ReadBytes(db);
  const std::string export_t4 = "export t4 user_kernel --size 8192x8192";
  for (const char* name : {"x.db", "soft.db", "hard.db"}) {
    const std::string output = " -o " + dir.File(name) + " --db " + db;
    for (const std::string& args :
         {"report" + output, "report --format md" + output, "db export" + output, export_t4 + output}) {
      SCOPED_TRACE(args);
      const testing::CliResult r = RunTuner(args);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_NE(r.err.find("which this command reads"), std::string::npos) << r.err;
      EXPECT_EQ(ReadBytes(db), before);
    }
  }
  const testing::CliResult r = RunTuner(export_t4 + " -o " + dir.File("t4.json") + " --db " + db);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the same command with another output works
}

// An output that cannot be created ended with exit 1, as if the work had failed.
TEST(DbCommands, AnOutputThatCannotBeCreatedIsBadUsage) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "x.db", "GPU-A", 3, "user_kernel");
  for (const std::string& args :
       std::vector<std::string>{"report -o /proc/tuner-report.html", "db export -o /proc/tuner.jsonl",
                                "export t4 user_kernel --size 8192x8192 -o /proc/tuner-t4.json"}) {
    SCOPED_TRACE(args);
    const testing::CliResult r = RunTuner(args + " --db " + db);  // /proc takes no new files, even from root
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot write '/proc/tuner"), std::string::npos) << r.err;
  }
}

// `db import /dev/zero` read one endless line until memory ran out, a folder was imported
// as an empty file (exit 0, a new database), and a read error was taken for the end of the file.
TEST(DbCommands, ImportRefusesWhatIsNotAFileOfLines) {
  TempDir dir;
  const std::string db = dir.File("new.db");
  ASSERT_EQ(mkfifo(dir.File("fifo").c_str(), 0600), 0);
  for (const std::string& input : {std::string("/dev/zero"), dir.File(""), dir.File("fifo")}) {
    SCOPED_TRACE(input);
    const testing::CliResult r = RunTuner("db import " + input + " --db " + db);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot read '" + input + "'"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db));
  }
  const testing::CliResult r = RunTuner("db import /proc/self/mem --db " + db);  // a file whose read fails (EIO)
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("failed"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
  const testing::CliResult endless =
      testing::RunCommand("head -c 80000000 /dev/zero | " + std::string(TUNER_EXECUTABLE) + " db import - --db " + db);
  EXPECT_EQ(endless.exit_code, 2) << endless.err;
  EXPECT_NE(endless.err.find("bytes in one line (the limit; raise it with TUNER_LIMIT_LINE_BYTES=N)"),
            std::string::npos)
      << endless.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

// Simulate's message about sweeps it cannot replay spread over several lines.
TEST(DbCommands, SimulateNamesSweepsItCannotReplayInOneLine) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "x.db", "GPU-A", 1, "user_kernel");  // its one candidate is invalid
  const testing::CliResult r = RunTuner("simulate user_kernel --size 8192x8192 --db " + db);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no complete sweep to replay"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// Names from a file or a merged database reached the terminal with their escape sequences.
TEST(DbCommands, InfoEscapesControlCharacters) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "x.db", "GPU-\x1b]0;pwned\x07", 1, "k\x1b[2J");
  const testing::CliResult r = RunTuner("db info --db " + db);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU-\\x1b]0;pwned\\x07"), std::string::npos) << r.out;
}

// A number out of range showed the JSON library's raw exception.
TEST(DbCommands, ImportNamesAnOutOfRangeNumberPlainly) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("big.jsonl"), "{\"measurement\": {\"time_ms\": 1e400}}\n");
  const testing::CliResult r = RunTuner("db import " + dir.File("big.jsonl") + " --db " + dir.File("b.db"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("big.jsonl:1: line 1, column 34: the number 1e400 is beyond the range of a double"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
}

// A device as the database was handed to SQLite, which failed with exit 1.
TEST(DbCommands, ADeviceAsTheDatabaseIsBadInput) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("rows.jsonl"), Export(MakeDatabase(dir, "good.db", "GPU-A", 1)));
  for (const std::string& args :
       {"db import " + dir.File("rows.jsonl") + " --db /dev/null", std::string("db info --db /dev/null")}) {
    const testing::CliResult r = RunTuner(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find("'/dev/null' is not a regular file"), std::string::npos) << args << ": " << r.err;
  }
}

// A line nested 100,000 deep, one longer than the limit, more lines than the limit: each stops at
// once with one short line naming the limit, and nothing is created.
TEST(DbCommands, ImportStopsAtEachLimitNamingIt) {
  TempDir dir;
  const std::string db = dir.File("new.db");
  db::testing::WriteBytes(dir.File("deep.jsonl"), std::string(100000, '[') + std::string(100000, ']') + "\n");
  db::testing::WriteBytes(dir.File("rows.jsonl"), Export(MakeDatabase(dir, "good.db", "GPU-A", 60)));
  const struct {
    std::string file, environment, expected;
  } cases[] = {{"deep.jsonl", "", "more than 64 levels of nesting (the limit; raise it with TUNER_LIMIT_DEPTH=N)"},
               {"rows.jsonl", "TUNER_LIMIT_LINE_BYTES=100", "TUNER_LIMIT_LINE_BYTES=N"},
               {"rows.jsonl", "TUNER_LIMIT_ENTRIES=50", "rows.jsonl:51: more than 50 entries"}};
  for (const auto& c : cases) {
    const testing::CliResult r = testing::RunCommand("env " + c.environment + " " + std::string(TUNER_EXECUTABLE) +
                                                     " db import " + dir.File(c.file) + " --db " + db);
    EXPECT_EQ(r.exit_code, 2) << c.file << " " << c.environment << ": " << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 500u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db));
  }
}

TEST(DbCommands, MergeTwiceChangesNothing) {
  TempDir dir;
  const std::string a = MakeDatabase(dir, "a.db", "GPU-A", 4);
  const std::string b = MakeDatabase(dir, "b.db", "GPU-B", 3);
  const std::string b_before = ReadBytes(b);
  ASSERT_EQ(RunTuner("db merge " + b + " --db " + a).exit_code, 0);
  const std::string once = Export(a);
  EXPECT_EQ(std::count(once.begin(), once.end(), '\n'), 7);
  const testing::CliResult again = RunTuner("db merge " + b + " --db " + a);
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.out.find("0 added or updated"), std::string::npos) << again.out;
  EXPECT_EQ(Export(a), once);
  EXPECT_EQ(ReadBytes(b), b_before);  // the other database is only read
  EXPECT_EQ(RunTuner("db merge " + a + " --db " + a).exit_code, 2);
}

// One field of an export line changed: `at` is the path to it ("/measurement/time_ms_median").
std::string WithField(const std::string& line, const std::string& at, const nlohmann::json& value) {
  nlohmann::ordered_json row = nlohmann::ordered_json::parse(line);
  row[nlohmann::ordered_json::json_pointer(at)] = value;
  return row.dump();
}

struct BadRow {
  std::string at;
  nlohmann::json value;
  std::string named;  // what the message must name
};

// Rows that would mislead every reader: a negative time taken as the best, parameters the
// application cannot launch, a count wrapped to a negative number, a size key that is a path.
const std::vector<BadRow> kBadRows = {
    {"/measurement/time_ms_median", -1, "measurement.time_ms_median is -1"},
    {"/measurement/params_json", "not json", "measurement.params_json"},
    {"/measurement/params_json", "[1,2]", "measurement.params_json"},
    {"/measurement/params_json", "{\"TILE\":1,\"EVIL\":4}", "measurement.params_json names (TILE, EVIL)"},
    {"/measurement/params_json", "{\"TILE\":1.5,\"ROWS\":4}", "measurement.params_json"},
    {"/measurement/samples", nlohmann::json::parse("1180591620717411303424"), "measurement.samples"},
    {"/measurement/samples", 4294967296LL, "measurement.samples"},
    {"/size_key", "../../x", "size_key"},
    {"/sweep/size_key", "4096x4096", "sweep.size_key"},
    {"/measurement/measured_at", "yesterday", "measurement.measured_at"},
    {"/sweep/started_at", "2026-13-01T00:00:00Z", "sweep.started_at"},
    {"/gpu/memory_bytes", -1, "gpu.memory_bytes is -1"},
    {"/gpu/uuid", "../GPU", "gpu.uuid"},
    {"/gpu/name", "H100\x1b[2J", "gpu.name"},
    {"/template/name", "../x", "template.name"},
    {"/measurement/occupancy", 2, "measurement.occupancy"},
    {"/measurement/launch_json", "{\"grid\":[0,1,1],\"block\":[1,1,1],\"shared_bytes\":0}", "measurement.launch_json"},
    {"/measurement/tie_rank", 1, "measurement.tie_rank"},  // a member of a tie without the tie's time
    {"/measurement/tie_ms", -0.5, "measurement.tie_ms"},
    {"/measurement/toolchain", "driver\x1b[2J", "measurement.toolchain"},
};

// Each bad row among good ones: exit 2 naming the line and the field, into an existing database
// (its bytes unchanged) and a new one (not created).
TEST(DbCommands, ImportRefusesRowsTheToolWouldNotWrite) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 4);
  const std::string good = Export(db);
  const std::string first = good.substr(0, good.find('\n'));
  const std::string before = ReadBytes(db);
  for (const BadRow& bad : kBadRows) {
    db::testing::WriteBytes(dir.File("bad.jsonl"), good + WithField(first, bad.at, bad.value) + "\n");
    for (const std::string& target : {db, dir.File("new.db")}) {
      const testing::CliResult result = RunTuner("db import " + dir.File("bad.jsonl") + " --db " + target);
      EXPECT_EQ(result.exit_code, 2) << bad.at << " " << bad.value.dump() << ": " << result.err;
      EXPECT_NE(result.err.find(dir.File("bad.jsonl") + ":5: "), std::string::npos) << result.err;
      EXPECT_NE(result.err.find(bad.named), std::string::npos) << bad.named << " in " << result.err;
      EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    }
    EXPECT_EQ(ReadBytes(db), before) << bad.at;
    EXPECT_FALSE(std::filesystem::exists(dir.File("new.db"))) << bad.at;
  }
}

// The parameters of a template version are those the database already holds of it, even when the
// import's rows all agree among themselves.
TEST(DbCommands, ImportRefusesParametersTheStoredVersionDoesNotHave) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 2);
  const std::string other = Export(MakeDatabase(dir, "b.db", "GPU-B", 2));
  std::string renamed;
  for (std::size_t at = 0, end; (end = other.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string line = other.substr(at, end - at);
    const auto row = nlohmann::json::parse(line);
    const std::string params = row["measurement"]["params_json"];
    renamed += WithField(line, "/measurement/params_json", "{\"TILES\"" + params.substr(params.find(':'))) + "\n";
  }
  db::testing::WriteBytes(dir.File("renamed.jsonl"), renamed);
  const std::string before = ReadBytes(db);
  const testing::CliResult result = RunTuner("db import " + dir.File("renamed.jsonl") + " --db " + db);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("has the parameters (TILE, ROWS)"), std::string::npos) << result.err;
  EXPECT_EQ(ReadBytes(db), before);
  EXPECT_EQ(RunTuner("db import " + dir.File("renamed.jsonl") + " --db " + dir.File("new.db")).exit_code, 0);
}

// A database from another node holding a row the tool would not write: refused as an import is,
// naming the database and the measurement, and the target is unchanged.
TEST(DbCommands, MergeRefusesRowsTheToolWouldNotWrite) {
  TempDir dir;
  const std::string db = MakeDatabase(dir, "a.db", "GPU-A", 3);
  const std::string other = MakeDatabase(dir, "b.db", "GPU-B", 3);
  {
    db::Store store = db::Store::Open(other, db::OpenMode::kReadWrite);
    const auto gpu = store.EnsureGpu(db::testing::SampleGpu("GPU-B"));
    const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h1", ""}), db::testing::SampleSweep());
    store.AddMeasurement(sweep, db::testing::SampleMeasurement(99, -1.0));
  }
  const std::string before = ReadBytes(db);
  const testing::CliResult result = RunTuner("db merge " + other + " --db " + db);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find(other + ", measurement 4: measurement.time_ms_median is -1"), std::string::npos)
      << result.err;
  EXPECT_EQ(ReadBytes(db), before);
}

// Databases of every earlier schema merge: what older tuners wrote passes the checks.
TEST(DbCommands, DatabasesOfEarlierSchemasMerge) {
  TempDir dir;
  for (const char* fixture : {"schema_v1.db", "schema_v4.db", "schema_v5.db"}) {
    const std::string copy = dir.File(fixture);
    std::filesystem::copy_file(std::string(TUNER_FIXTURES_DIR "/") + fixture, copy);
    const testing::CliResult result = RunTuner("db merge " + copy + " --db " + dir.File("merged.db"));
    EXPECT_EQ(result.exit_code, 0) << fixture << ": " << result.err;
  }
}

}  // namespace
}  // namespace tuner
