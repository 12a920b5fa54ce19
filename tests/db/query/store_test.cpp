#include "db/query/store.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>

#include "base/errors.h"
#include "db/query/schema.h"
#include "db/query/sqlite.h"
#include "db/row_json.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

using testing::SampleGpu;
using testing::SampleMeasurement;
using testing::SampleSweep;
using testing::TempDir;

struct Filled {
  std::int64_t gpu_id, template_id, sweep_id;
};

Filled Fill(Store& store, const std::string& hash = "hash-a", const std::string& size_key = "8192x8192") {
  Filled f{};
  f.gpu_id = store.EnsureGpu(SampleGpu());
  f.template_id = store.EnsureTemplate({"transpose", hash, ""});
  f.sweep_id = store.StartSweep(f.gpu_id, f.template_id, SampleSweep(size_key));
  store.AddMeasurement(f.sweep_id, SampleMeasurement(16, 2.0));
  store.AddMeasurement(f.sweep_id, SampleMeasurement(32, 1.0));
  store.AddMeasurement(f.sweep_id, SampleMeasurement(64, 0.5, "wrong_result"));
  return f;
}

TEST(Store, RoundTripThroughAFile) {
  TempDir dir;
  const std::string path = dir.File("sub/dir/tuner.db");  // parent folders are created
  Filled f;
  {
    Store store = Store::Open(path, OpenMode::kReadWrite);
    f = Fill(store);
    store.FinishSweep(f.sweep_id, "done");
  }
  Store store = Store::Open(path, OpenMode::kReadOnly);
  const auto stored = store.Measurements(f.gpu_id, f.template_id, "8192x8192");
  ASSERT_EQ(stored.size(), 3u);
  const MeasurementRecord expected = SampleMeasurement(32, 1.0);
  EXPECT_EQ(stored[1].params_json, expected.params_json);
  EXPECT_EQ(stored[1].launch_json, expected.launch_json);
  EXPECT_DOUBLE_EQ(stored[1].time_ms_median, 1.0);
  EXPECT_EQ(stored[1].samples, 20);
  EXPECT_EQ(stored[1].smem_bytes, 4096);
  EXPECT_EQ(stored[1].limiter, "warps");
  EXPECT_EQ(stored[1].measured_at, expected.measured_at);
  EXPECT_EQ(stored[2].status, CandidateStatus::kWrongResult);
  EXPECT_TRUE(store.Measurements(f.gpu_id, f.template_id, "1024x1024").empty());
  const auto rows = store.ListMeasurements({});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].sweep.status, "done");
  EXPECT_FALSE(rows[0].sweep.ended_at.empty());
  EXPECT_EQ(rows[0].gpu.uuid, "GPU-1111");
  EXPECT_EQ(store.SchemaVersion(), kSchemaVersion);
  EXPECT_THROW(store.EnsureGpu(SampleGpu()), std::logic_error);  // read-only
}

// One sweep per GPU, each in its own thread, all writing through one Store (one SQLite writer).
TEST(Store, ThreadsSharingOneStoreLoseNothing) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const std::int64_t template_id = store.EnsureTemplate({"transpose", "abc", ""});
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&store, template_id, t] {
      const std::int64_t gpu_id = store.EnsureGpu(SampleGpu("GPU-" + std::to_string(t)));
      const std::int64_t sweep_id = store.StartSweep(gpu_id, template_id, SampleSweep());
      for (int i = 0; i < 300; ++i) store.AddMeasurement(sweep_id, SampleMeasurement(i, 1.0 + i));
      store.FinishSweep(sweep_id, "done");
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(store.ListMeasurements({}).size(), 600u);
}

TEST(Store, KeepsTheCeilingsReportsCompareWith) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  GpuRecord gpu = SampleGpu();
  gpu.sm_clock_mhz = 1980;
  const std::int64_t gpu_id = store.EnsureGpu(gpu);
  gpu.sm_clock_mhz = 0;  // an unknown clock never overwrites a known one
  store.EnsureGpu(gpu);
  const std::int64_t sweep_id = store.StartSweep(gpu_id, store.EnsureTemplate({"transpose", "abc", ""}), SampleSweep());
  store.SetCopyBandwidth(sweep_id, 2917.5);
  store.AddMeasurement(sweep_id, SampleMeasurement(32, 1.0));
  const auto rows = store.ListMeasurements({});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].gpu.sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(rows[0].sweep.copy_gbps, 2917.5);
}

TEST(Store, EnsureIsIdempotentAndUpdatesVersions) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  GpuRecord gpu = SampleGpu();
  const auto id = store.EnsureGpu(gpu);
  gpu.driver_version = "13.1";
  EXPECT_EQ(store.EnsureGpu(gpu), id);
  EXPECT_NE(store.EnsureGpu(SampleGpu("GPU-2222")), id);
  const auto t1 = store.EnsureTemplate({"transpose", "a", ""});
  EXPECT_EQ(store.EnsureTemplate({"transpose", "a", ""}), t1);
  EXPECT_NE(store.EnsureTemplate({"transpose", "b", ""}), t1);
  const auto sweep = store.StartSweep(id, t1, SampleSweep());
  store.AddMeasurement(sweep, SampleMeasurement(16, 1.0));
  EXPECT_EQ(store.ListMeasurements({}).at(0).gpu.driver_version, "13.1");
}

TEST(Store, NewMeasurementOfTheSameCandidateReplacesTheOld) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const Filled f = Fill(store);
  const auto second = store.StartSweep(f.gpu_id, f.template_id, SampleSweep());
  store.AddMeasurement(second, SampleMeasurement(32, 0.75));
  const auto stored = store.Measurements(f.gpu_id, f.template_id, "8192x8192");
  ASSERT_EQ(stored.size(), 3u);
  EXPECT_DOUBLE_EQ(stored[1].time_ms_median, 0.75);
  EXPECT_THROW(store.AddMeasurement(9999, SampleMeasurement(8, 1.0)), std::invalid_argument);
}

TEST(Store, BestPerGpuMarksOlderTemplateVersionsStale) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  Fill(store, "old");
  const auto best_old = store.BestPerGpu("transpose", "");
  ASSERT_EQ(best_old.size(), 1u);
  EXPECT_FALSE(best_old[0].stale);
  EXPECT_EQ(best_old[0].measurement.params_json, SampleMeasurement(32, 1).params_json);
  EXPECT_EQ(store.BestPerGpu("transpose", "new").at(0).stale, true);
  EXPECT_TRUE(store.BestPerGpu("sgemm", "").empty());
}

TEST(Store, BestPerModelTakesTheFastestCard) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", "h", ""});
  for (const char* uuid : {"GPU-A", "GPU-B"}) {
    const auto sweep = store.StartSweep(store.EnsureGpu(SampleGpu(uuid)), templ, SampleSweep());
    store.AddMeasurement(sweep, SampleMeasurement(32, uuid[4] == 'A' ? 2.0 : 1.5));
  }
  ASSERT_EQ(store.BestPerGpu("transpose", "").size(), 2u);
  const auto best = store.BestPerModel("transpose", "");
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].gpu.uuid, "GPU-B");
}

TEST(Store, ModelMeasurementsAreThoseOfEveryCardOfTheModel) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", "h", ""});
  std::int64_t first = 0;
  int tile = 16;
  for (const auto& gpu : {SampleGpu("GPU-A"), SampleGpu("GPU-B"), SampleGpu("GPU-C", "NVIDIA H200")}) {
    const auto id = store.EnsureGpu(gpu);
    if (!first) first = id;
    store.AddMeasurement(store.StartSweep(id, templ, SampleSweep()), SampleMeasurement(tile *= 2, 1.0));
  }
  const auto rows = store.ModelMeasurements(first, templ, "8192x8192");
  ASSERT_EQ(rows.size(), 2u);  // GPU-A's and GPU-B's, not the H200's
  EXPECT_EQ(rows[0].params_json, SampleMeasurement(32, 1).params_json);
  EXPECT_EQ(rows[1].params_json, SampleMeasurement(64, 1).params_json);
  EXPECT_EQ(store.Measurements(first, templ, "8192x8192").size(), 1u);
}

TEST(Store, ReadOnlyOfAMissingFileFailsAndCreatesNothing) {
  TempDir dir;
  const std::string path = dir.File("missing.db");
  try {
    Store::Open(path, OpenMode::kReadOnly);
    FAIL() << "opened a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

// Each bad file must be refused in both modes, in one line naming the path and the problem, and
// left as it was: the same bytes and no -wal, -shm or -journal beside it.
void ExpectRefused(const std::string& path, const std::string& problem) {
  const std::string before = testing::ReadBytes(path);
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite}) {
    try {
      Store::Open(path, mode);
      ADD_FAILURE() << "opened " << problem;
    } catch (const BadDatabaseError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(path), std::string::npos) << message;
      EXPECT_NE(message.find(problem), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(testing::ReadBytes(path), before) << problem;
    EXPECT_TRUE(testing::SideFiles(path).empty())
        << problem << ": " << ::testing::PrintToString(testing::SideFiles(path));
  }
}

// Refused files in both journal modes: "wal" is how every writer before schema 5 left its file.
void ExpectRefusedInEitherJournalMode(const TempDir& dir, const std::string& bytes_in_delete_mode,
                                      const std::string& problem) {
  for (const std::string mode : {"delete", "wal"}) {
    const std::string path = dir.File(mode + ".db");
    testing::WriteBytes(path, bytes_in_delete_mode);
    if (mode == "wal")
      testing::WriteBytes(path, bytes_in_delete_mode.substr(0, 18) + "\x02\x02" + bytes_in_delete_mode.substr(20));
    ExpectRefused(path, problem);
  }
}

std::string MakeFilledDatabase(const TempDir& dir, const std::string& name) {
  const std::string path = dir.File(name);
  Store store = Store::Open(path, OpenMode::kReadWrite);
  const Filled f = Fill(store);
  for (int tile = 100; tile < 400; ++tile) store.AddMeasurement(f.sweep_id, SampleMeasurement(tile, tile));
  return path;
}

TEST(Store, RefusesEmptyFile) {
  TempDir dir;
  testing::WriteBytes(dir.File("empty.db"), "");
  ExpectRefused(dir.File("empty.db"), "empty");
}

TEST(Store, RefusesRandomBytes) {
  TempDir dir;
  std::string bytes(8192, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7919) % 251);
  testing::WriteBytes(dir.File("random.db"), bytes);
  ExpectRefused(dir.File("random.db"), "not an SQLite database");
}

TEST(Store, RefusesForeignSqliteDatabase) {
  TempDir dir;
  const std::string path = dir.File("foreign.db");
  {
    sql::Connection other(path, sql::Connection::Mode::kCreate);
    other.Execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos VALUES (1, 'a')");
  }
  ExpectRefused(path, "not one made by tuner");
  {
    sql::Connection other(path, sql::Connection::Mode::kReadWrite);
    other.Execute("PRAGMA application_id = 1234");
  }
  ExpectRefused(path, "another application");
}

TEST(Store, RefusesTruncatedFile) {
  TempDir dir;
  const std::string path = MakeFilledDatabase(dir, "full.db");
  const std::string bytes = testing::ReadBytes(path);
  ASSERT_GT(bytes.size(), 8192u);
  testing::WriteBytes(dir.File("half.db"), bytes.substr(0, bytes.size() / 2));
  ExpectRefused(dir.File("half.db"), "truncated");
  testing::WriteBytes(dir.File("tiny.db"), bytes.substr(0, 50));
  ExpectRefused(dir.File("tiny.db"), "truncated");
}

TEST(Store, RefusesCorruptPages) {
  TempDir dir;
  const std::string path = MakeFilledDatabase(dir, "full.db");
  std::string bytes = testing::ReadBytes(path);
  for (std::size_t i = 4096; i < bytes.size(); i += 3) bytes[i] = static_cast<char>(0xA5);
  ExpectRefusedInEitherJournalMode(dir, bytes, "corrupt");
}

TEST(Store, RefusesNewerSchema) {
  TempDir dir;
  const std::string path = MakeFilledDatabase(dir, "newer.db");
  {
    sql::Connection connection(path, sql::Connection::Mode::kReadWrite);
    connection.Execute("PRAGMA user_version = 99");
  }
  ExpectRefusedInEitherJournalMode(dir, testing::ReadBytes(path), "newer tuner");
}

// Our application id but user_version 0: not a file any tuner wrote (tuner sets both in the
// transaction that creates the file), so it is refused, not adopted by adding our tables.
TEST(Store, RefusesOurApplicationIdAtSchemaVersionZero) {
  TempDir dir;
  const std::string path = dir.File("zero.db");
  {
    sql::Connection other(path, sql::Connection::Mode::kCreate);
    other.Execute("PRAGMA application_id = " + std::to_string(kApplicationId));
    other.Execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos VALUES (1, 'a')");
  }
  ExpectRefusedInEitherJournalMode(dir, testing::ReadBytes(path), "schema version 0");
}

// Opened for writing, the file is upgraded; opened for reading, a copy in memory is, and the file
// is left as it was (tests/db/query/schema_test.cpp).
TEST(Store, UpgradesTheVersionOneFixture) {
  TempDir dir;
  for (OpenMode mode : {OpenMode::kReadWrite, OpenMode::kReadOnly}) {
    const std::string path = dir.File(mode == OpenMode::kReadOnly ? "ro.db" : "rw.db");
    std::filesystem::copy_file(TUNER_FIXTURES_DIR "/schema_v1.db", path);
    Store store = Store::Open(path, mode);
    EXPECT_EQ(store.SchemaVersion(), mode == OpenMode::kReadOnly ? 1 : kSchemaVersion);
    const auto rows = store.ListMeasurements({});
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].templ.name, "transpose");
    EXPECT_EQ(rows[0].gpu.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(rows[0].sweep.uid.rfind("v1-", 0), 0u) << rows[0].sweep.uid;  // filled by the migration
    EXPECT_EQ(store.BestPerGpu("transpose", "").size(), 1u);
  }
}

// A version-1 file is upgraded in memory at every reading: its sweeps' ids are made of their rows,
// so that every reading (a merge, an export) finds the same ones, and the upgraded file keeps them.
TEST(Store, AVersionOneSweepHasTheSameUidAtEveryReading) {
  TempDir dir;
  const std::string path = dir.File("v1.db");
  std::filesystem::copy_file(TUNER_FIXTURES_DIR "/schema_v1.db", path);
  const auto uids = [&](OpenMode mode) {
    std::set<std::string> found;
    for (const MeasurementRow& row : Store::Open(path, mode).ListMeasurements({})) found.insert(row.sweep.uid);
    return found;
  };
  const std::set<std::string> first = uids(OpenMode::kReadOnly);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(uids(OpenMode::kReadOnly), first);
  EXPECT_EQ(uids(OpenMode::kReadWrite), first);
}

// Before schema 4 a fault or timeout was recorded at its first kill of the worker.
TEST(Store, UpgradeCountsOldFaultsAsOneWorkerKill) {
  TempDir dir;
  const std::string path = dir.File("v1.db");
  std::filesystem::copy_file(TUNER_FIXTURES_DIR "/schema_v1.db", path);
  {
    sql::Connection connection(path, sql::Connection::Mode::kReadWrite);
    connection.Execute("UPDATE measurements SET status = 'fault' WHERE id = (SELECT MIN(id) FROM measurements)");
  }
  Store store = Store::Open(path, OpenMode::kReadWrite);
  int faults = 0;
  for (const MeasurementRow& row : store.ListMeasurements({})) {
    const bool fault = row.measurement.status == CandidateStatus::kFault;
    faults += fault;
    EXPECT_EQ(row.measurement.worker_kills, fault ? 1 : 0);
  }
  EXPECT_EQ(faults, 1);
}

TEST(Store, KeepsHowOftenACandidateKilledItsWorker) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const Filled f = Fill(store);
  MeasurementRecord fault = SampleMeasurement(128, 0, "fault");
  fault.worker_kills = 2;
  store.AddMeasurement(f.sweep_id, fault);
  const auto stored = store.Measurements(f.gpu_id, f.template_id, "8192x8192");
  ASSERT_EQ(stored.size(), 4u);
  EXPECT_EQ(stored[3].worker_kills, 2);
  EXPECT_EQ(stored[0].worker_kills, 0);
}

// Writers in separate processes, each with its own connection opened after fork.
TEST(Store, TwoProcessesWriteOneDatabase) {
  TempDir dir;
  const std::string path = dir.File("shared.db");
  { Store::Open(path, OpenMode::kReadWrite); }
  constexpr int kPerWriter = 300;
  pid_t children[2];
  for (int writer = 0; writer < 2; ++writer) {
    children[writer] = fork();
    ASSERT_GE(children[writer], 0);
    if (children[writer] == 0) {
      int code = 0;
      try {
        Store store = Store::Open(path, OpenMode::kReadWrite);
        const auto gpu = store.EnsureGpu(SampleGpu("GPU-" + std::to_string(writer)));
        const auto templ = store.EnsureTemplate({"transpose", "h", ""});
        const auto sweep = store.StartSweep(gpu, templ, SampleSweep());
        for (int i = 0; i < kPerWriter; ++i) store.AddMeasurement(sweep, SampleMeasurement(i, 1.0 + i));
        store.FinishSweep(sweep, "done");
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %d: %s\n", writer, e.what());
        code = 1;
      }
      _exit(code);
    }
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  Store store = Store::Open(path, OpenMode::kReadOnly);
  EXPECT_EQ(store.ListMeasurements({}).size(), 2u * kPerWriter);
  EXPECT_TRUE(store.FullCheck().empty());
}

// One child of the next test: `rounds` times opens the database, writes a measurement (or reads,
// for a reader) and closes it. Returns the exit code.
int OpenWriteAndCloseRepeatedly(const std::string& path, int child, bool writer, int rounds) {
  try {
    for (int round = 0; round < rounds; ++round) {
      if (!writer) {
        Store::Open(path, OpenMode::kReadOnly).ListMeasurements({});
        continue;
      }
      Store store = Store::Open(path, OpenMode::kReadWrite);
      const auto gpu = store.EnsureGpu(SampleGpu("GPU-" + std::to_string(child)));
      const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h", ""}), SampleSweep());
      store.AddMeasurement(sweep, SampleMeasurement(round, 1.0 + round));
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "process %d: %s\n", child, e.what());
    return 1;
  }
}

// Writers and readers in separate processes opening and closing one database again and again: a
// writer's switch into WAL at open meets another's switch back at close (it failed at once with
// "database is locked" despite the busy timeout), and whoever closes last, reader or writer, leaves
// one self-contained file in rollback mode.
TEST(Store, ProcessesOpeningAndClosingAtOnceNeverFailAndLeaveOneFile) {
  TempDir dir;
  const std::string path = dir.File("shared.db");
  { Store::Open(path, OpenMode::kReadWrite); }
  constexpr int kWriters = 4, kReaders = 2, kRounds = 25;
  std::vector<pid_t> children;
  for (int child = 0; child < kWriters + kReaders; ++child) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(OpenWriteAndCloseRepeatedly(path, child, child < kWriters, kRounds));
    children.push_back(pid);
  }
  int failed = 0;
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  EXPECT_EQ(failed, 0);
  EXPECT_TRUE(testing::SideFiles(path).empty()) << ::testing::PrintToString(testing::SideFiles(path));
  EXPECT_FALSE(CheckFileHeader(path).wal_mode);
  Store store = Store::Open(path, OpenMode::kReadOnly);
  EXPECT_EQ(store.ListMeasurements({}).size(), std::size_t{kWriters * kRounds});
  EXPECT_TRUE(store.FullCheck().empty());
}

TEST(Store, TwoThreadsWithTheirOwnConnections) {
  TempDir dir;
  const std::string path = dir.File("threads.db");
  auto write = [&](int writer) {
    Store store = Store::Open(path, OpenMode::kReadWrite);  // both may create it: one wins
    const auto gpu = store.EnsureGpu(SampleGpu("GPU-" + std::to_string(writer)));
    const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h", ""}), SampleSweep());
    for (int i = 0; i < 200; ++i) store.AddMeasurement(sweep, SampleMeasurement(i, 1.0 + i));
  };
  std::thread first(write, 0), second(write, 1);
  first.join();
  second.join();
  EXPECT_EQ(Store::Open(path, OpenMode::kReadOnly).ListMeasurements({}).size(), 400u);
}

TEST(Store, ImportTwiceChangesNothing) {
  TempDir dir;
  Store a = Store::Open(dir.File("a.db"), OpenMode::kReadWrite);
  Store b = Store::Open(dir.File("b.db"), OpenMode::kReadWrite);
  Fill(a);
  const auto gpu = b.EnsureGpu(SampleGpu("GPU-B", "NVIDIA H200"));
  const auto sweep = b.StartSweep(gpu, b.EnsureTemplate({"transpose", "hash-a", ""}), SampleSweep());
  b.AddMeasurement(sweep, SampleMeasurement(32, 0.9));
  const auto rows = b.ListMeasurements({});
  EXPECT_EQ(a.Import(rows), 1);
  const auto after_first = a.ListMeasurements({});
  EXPECT_EQ(after_first.size(), 4u);
  EXPECT_EQ(a.Import(rows), 0);
  EXPECT_EQ(a.Import(a.ListMeasurements({})), 0);  // merging with itself too
  const auto after_second = a.ListMeasurements({});
  ASSERT_EQ(after_second.size(), after_first.size());
  for (std::size_t i = 0; i < after_first.size(); ++i) {
    EXPECT_EQ(after_second[i].measurement.id, after_first[i].measurement.id);
    EXPECT_EQ(after_second[i].sweep.uid, after_first[i].sweep.uid);
  }
  EXPECT_EQ(a.Counts().size(), 3u);  // H100 ok, H100 wrong_result, H200 ok
}

// An export line of schema 3 has no worker_kills: its fault killed the worker once, as the
// migration assumes, and it round-trips once it has one.
TEST(Store, ExportLinesWithoutWorkerKillsCountAFaultAsOne) {
  MeasurementRow row;
  row.gpu = SampleGpu();
  row.templ = {"transpose", "hash-a", ""};
  row.measurement = SampleMeasurement(16, 1.0, "fault");
  row.measurement.worker_kills = 2;
  auto line = nlohmann::json::parse(ToJson(row).dump());
  EXPECT_EQ(RowFromJson(line).measurement.worker_kills, 2);
  line["measurement"].erase("worker_kills");
  EXPECT_EQ(RowFromJson(line).measurement.worker_kills, 1);
  line["measurement"]["status"] = "ok";
  EXPECT_EQ(RowFromJson(line).measurement.worker_kills, 0);
}

std::vector<std::string> Keys(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

// The export's format: every field of every record, in the order exports have always had, reads
// back to the same line.
TEST(RowJson, AnExportLineKeepsEveryFieldInItsOrderAndReadsBackToTheSameLine) {
  MeasurementRow row;
  row.gpu = SampleGpu();
  row.gpu.sm_clock_mhz = 1980;
  row.templ = {"transpose", "h", "2026-11-20T00:00:00Z"};
  row.sweep = SampleSweep();
  row.sweep.uid = "sweep-1";
  row.sweep.budget = 40;
  row.sweep.nvrtc_version = "13.0";
  row.sweep.started_at = "2026-11-20T00:00:01Z";
  row.sweep.ended_at = "2026-11-20T00:05:00Z";
  row.sweep.copy_gbps = 2500;
  row.size_key = "8192x8192";
  row.measurement = SampleMeasurement(16, 1.0, "fault");
  row.measurement.reason = "the worker died";
  row.measurement.spill_bytes = 8;
  row.measurement.error_text = "an illegal address";
  row.measurement.worker_kills = 2;
  row.measurement.counters_json = R"({"load_sectors_per_request":4.0})";
  row.measurement.energy_j = 0.002;
  row.measurement.power_w = 400;
  row.measurement.energy_launch_ms = 5;
  row.measurement.perf_per_joule = 12.5;
  row.measurement.timing_mode = "graph";
  row.measurement.tie_ms = 0.9;
  row.measurement.tie_rank = 2;
  row.measurement.toolchain = "driver 13.0, runtime 13.0, nvrtc 13.0";
  row.measurement.revalidation = "failed: fault";
  const nlohmann::ordered_json line = ToJson(row);
  using Names = std::vector<std::string>;
  EXPECT_EQ(Keys(line), (Names{"gpu", "template", "sweep", "size_key", "measurement"}));
  EXPECT_EQ(Keys(line["gpu"]), (Names{"uuid", "name", "cc_major", "cc_minor", "sm_count", "memory_bytes",
                                      "driver_version", "cuda_version", "sm_clock_mhz"}));
  EXPECT_EQ(Keys(line["template"]), (Names{"name", "hash", "first_seen"}));
  EXPECT_EQ(Keys(line["sweep"]), (Names{"uid", "command", "strategy", "budget", "size_key", "status", "tool_version",
                                        "nvrtc_version", "started_at", "ended_at", "copy_gbps"}));
  EXPECT_EQ(Keys(line["measurement"]),
            (Names{"params_json", "launch_json", "status", "reason", "time_ms_median", "time_ms_min", "time_ms_max",
                   "time_ms_spread", "samples", "perf_value", "perf_unit", "regs_per_thread", "smem_bytes",
                   "spill_bytes", "blocks_per_sm", "occupancy", "limiter", "compile_ms", "error_text", "measured_at",
                   "worker_kills", "counters_json", "energy_j", "power_w", "energy_launch_ms", "perf_per_joule",
                   "timing_mode", "tie_ms", "tie_rank", "toolchain", "revalidation"}));
  EXPECT_EQ(line["measurement"]["status"], "fault");
  EXPECT_EQ(ToJson(RowFromJson(nlohmann::json::parse(line.dump()))).dump(), line.dump());
}

// Counters and energy travel through export and import; an export of schema 5 has none of them.
TEST(RowJson, CountersAndEnergyRoundTripAndMayBeAbsent) {
  MeasurementRow row;
  row.gpu = SampleGpu();
  row.templ = {"transpose", "h", "2026-11-20T00:00:00Z"};
  row.sweep = SampleSweep();
  row.size_key = "8192x8192";
  row.measurement = SampleMeasurement(16, 1.0);
  row.measurement.counters_json = R"({"load_sectors_per_request":4.0})";
  row.measurement.energy_j = 0.002;
  row.measurement.power_w = 400;
  row.measurement.energy_launch_ms = 5;
  row.measurement.perf_per_joule = 12.5;
  auto line = nlohmann::json::parse(ToJson(row).dump());
  const MeasurementRecord back = RowFromJson(line).measurement;
  EXPECT_EQ(back.counters_json, row.measurement.counters_json);
  EXPECT_EQ(back.energy_j, 0.002);
  EXPECT_EQ(back.power_w, 400);
  EXPECT_EQ(back.energy_launch_ms, 5);
  EXPECT_EQ(back.perf_per_joule, 12.5);
  for (const char* key : {"counters_json", "energy_j", "power_w", "energy_launch_ms", "perf_per_joule"})
    line["measurement"].erase(key);
  const MeasurementRecord old = RowFromJson(line).measurement;
  EXPECT_EQ(old.counters_json, "");
  EXPECT_EQ(old.energy_j, 0);
  line["measurement"]["counters_json"] = "[1, 2]";
  EXPECT_THROW(RowFromJson(line), std::invalid_argument) << "counters must be an object";
}

}  // namespace
}  // namespace tuner::db
