// tuner db check | info | export | import | merge through the built binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db/store.h"
#include "db_test_util.h"

namespace tuner {
namespace {

using db::testing::ReadBytes;
using db::testing::TempDir;

using testing::RunTuner;

// A database with one sweep of `count` candidates on the GPU `uuid`.
std::string MakeDatabase(const TempDir& dir, const std::string& name, const std::string& uuid, int count) {
  const std::string path = dir.File(name);
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(db::testing::SampleGpu(uuid));
  const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h1", ""}), db::testing::SampleSweep());
  for (int i = 0; i < count; ++i) store.AddMeasurement(sweep, db::testing::SampleMeasurement(i, 1.0 + i, i % 3 ? "ok" : "invalid"));
  store.FinishSweep(sweep, "done");
  return path;
}

std::string Export(const std::string& db) { return RunTuner("db export --db " + db).out; }

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
  EXPECT_NE(check.out.find("ok"), std::string::npos);
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

}  // namespace
}  // namespace tuner
