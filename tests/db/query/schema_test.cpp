// Opening a database: reading never writes (no migration, no journal-mode change, no side files),
// a file nobody may write reads like any other, writers leave one self-contained file, and the
// migration to schema 5 keeps the best row of every group (best_per_gpu) right.
#include "db/query/schema.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <optional>

#include "base/errors.h"
#include "db/query/best.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "run_unprivileged.h"

namespace tuner::db {
namespace {

namespace fs = std::filesystem;
using testing::ReadBytes;
using testing::SampleGpu;
using testing::SampleMeasurement;
using testing::SampleSweep;
using testing::SideFiles;
using testing::TempDir;

// Two GPUs, two sizes, ok and failed candidates.
std::string MakeDatabase(const TempDir& dir, const std::string& name) {
  const std::string path = dir.File(name);
  Store store = Store::Open(path, OpenMode::kReadWrite);
  const auto templ = store.EnsureTemplate({"transpose", "hash-a", ""});
  for (const char* uuid : {"GPU-A", "GPU-B"}) {
    const auto gpu = store.EnsureGpu(SampleGpu(uuid));
    for (const char* size : {"4096x4096", "8192x8192"}) {
      const auto sweep = store.StartSweep(gpu, templ, SampleSweep(size));
      for (int tile = 8; tile <= 64; tile *= 2)
        store.AddMeasurement(sweep, SampleMeasurement(tile, 100.0 / tile, tile == 64 ? "wrong_result" : "ok"));
    }
  }
  return path;
}

bool HeaderSaysWal(const std::string& path) { return CheckFileHeader(path).wal_mode; }

// What the reading commands do, as one line to compare: "" when all went as expected.
std::string ReadEverything(const std::string& path, IntegrityCheck check) {
  Store store = Store::Open(path, OpenMode::kReadOnly, check);
  const auto rows = store.ListMeasurements({});
  const auto best = store.BestPerGpu("transpose", "");
  const auto lookup = store.BestForLookup("transpose");
  const auto problems = store.FullCheck();
  if (rows.empty() || best.empty() || lookup.size() != best.size() || !problems.empty() || store.Counts().empty())
    return path + ": read " + std::to_string(rows.size()) + " rows, " + std::to_string(best.size()) + " best, " +
           std::to_string(lookup.size()) + " for lookup, " + std::to_string(problems.size()) + " problems";
  return "";
}

std::size_t FilesIn(const std::string& folder) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

TEST(OpenForReading, WritesNothingToAFileInRollbackMode) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  ASSERT_FALSE(HeaderSaysWal(path));
  const std::string before = ReadBytes(path);
  for (IntegrityCheck check : {IntegrityCheck::kQuick, IntegrityCheck::kHeaderAndVersion})
    EXPECT_EQ(ReadEverything(path, check), "");
  EXPECT_EQ(ReadBytes(path), before);
  EXPECT_TRUE(SideFiles(path).empty()) << ::testing::PrintToString(SideFiles(path));
  EXPECT_EQ(FilesIn(fs::path(path).parent_path()), 1u);
}

// A WAL-mode file at rest (as every writer before schema 5 left it, or another program) read by
// someone who may write it: a reader leaves it as it found it, in WAL mode, byte for byte, with
// nothing beside it.
TEST(OpenForReading, AWalModeFileAtRestIsLeftAsItWasByAReaderWhoMayWriteIt) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  testing::SetJournalMode(path, "wal");
  ASSERT_TRUE(HeaderSaysWal(path));
  const std::string before = ReadBytes(path);
  for (IntegrityCheck check : {IntegrityCheck::kQuick, IntegrityCheck::kHeaderAndVersion})
    EXPECT_EQ(ReadEverything(path, check), "");
  EXPECT_TRUE(HeaderSaysWal(path));
  EXPECT_EQ(ReadBytes(path), before);
  EXPECT_TRUE(SideFiles(path).empty()) << ::testing::PrintToString(SideFiles(path));
  EXPECT_EQ(FilesIn(fs::path(path).parent_path()), 1u);
}

TEST(OpenForReading, AnOlderSchemaIsReadThroughAnUpgradeInMemory) {
  TempDir dir;
  for (const char* fixture : {"schema_v1.db", "schema_v4.db", "schema_v5.db", "schema_v6.db"}) {
    const std::string path = dir.File(fixture);
    fs::copy_file(std::string(TUNER_FIXTURES_DIR "/") + fixture, path);
    const std::string before = ReadBytes(path);
    {
      Store store = Store::Open(path, OpenMode::kReadOnly);
      EXPECT_EQ(store.SchemaVersion(), fixture[8] - '0');
      EXPECT_FALSE(store.ListMeasurements({}).empty());
      EXPECT_FALSE(store.BestPerGpu("transpose", "").empty());
      EXPECT_TRUE(store.FullCheck().empty());
    }
    // Not migrated, nor switched out of WAL mode (schema_v4.db is in WAL mode): the same bytes.
    EXPECT_EQ(CheckFileHeader(path).schema_version, fixture[8] - '0') << fixture;
    EXPECT_EQ(ReadBytes(path), before) << fixture;
    EXPECT_TRUE(SideFiles(path).empty()) << fixture;
  }
}

// Root ignores file modes, so this runs as nobody: a results file at 0444 in a folder this user
// cannot write (a shared or installed database), in either journal mode, current or older schema.
TEST(OpenForReading, AFileThisUserCannotWriteInAFolderItCannotWrite) {
  TempDir dir;
  const std::vector<std::string> paths = {MakeDatabase(dir, "delete.db"), MakeDatabase(dir, "wal.db"),
                                          dir.File("v1.db"), dir.File("v4.db")};
  testing::SetJournalMode(paths[1], "wal");
  fs::copy_file(TUNER_FIXTURES_DIR "/schema_v1.db", paths[2]);
  fs::copy_file(TUNER_FIXTURES_DIR "/schema_v4.db", paths[3]);
  std::vector<std::string> before;
  for (const std::string& path : paths) {
    ASSERT_EQ(chmod(path.c_str(), 0444), 0);
    before.push_back(ReadBytes(path));
  }
  const auto run = tuner::testing::RunUnprivileged([&] {
    std::string failures;
    for (const std::string& path : paths) {
      if (access(fs::path(path).parent_path().c_str(), W_OK) == 0) return "the folder is writable: " + path;
      for (IntegrityCheck check : {IntegrityCheck::kQuick, IntegrityCheck::kHeaderAndVersion})
        failures += ReadEverything(path, check);
      try {
        Store::Open(path, OpenMode::kReadWrite);
        failures += path + " opened for writing; ";
      } catch (const UsageError& e) {
        if (std::string(e.what()).find(path) == std::string::npos) failures += e.what();
      }
    }
    return failures;
  });
  if (!run.ran) GTEST_SKIP() << "needs a user without privileges: " << run.result;
  EXPECT_EQ(run.result, "");
  for (std::size_t i = 0; i < paths.size(); ++i) {
    EXPECT_EQ(ReadBytes(paths[i]), before[i]) << paths[i];
    EXPECT_TRUE(SideFiles(paths[i]).empty()) << paths[i];
  }
}

TEST(OpenForReading, ReadsWhatAWriterCommitsWhileItWrites) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  {
    Store writer = Store::Open(path, OpenMode::kReadWrite);
    Store reader = Store::Open(path, OpenMode::kReadOnly);  // through the writer's -wal and -shm
    const auto before = reader.ListMeasurements({}).size();
    const auto gpu = writer.EnsureGpu(SampleGpu("GPU-C"));
    writer.AddMeasurement(writer.StartSweep(gpu, writer.EnsureTemplate({"transpose", "hash-a", ""}), SampleSweep()),
                          SampleMeasurement(8, 0.01));
    EXPECT_EQ(reader.ListMeasurements({}).size(), before + 1);
    EXPECT_EQ(reader.BestForLookup("transpose").size(), 5u);
  }
  // The writer closed last: the file is self-contained again.
  EXPECT_TRUE(SideFiles(path).empty());
  EXPECT_FALSE(HeaderSaysWal(path));
}

TEST(OpenForWriting, WritersLeaveOneSelfContainedFile) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  EXPECT_FALSE(HeaderSaysWal(path));
  EXPECT_TRUE(SideFiles(path).empty());
  {
    Store writer = Store::Open(path, OpenMode::kReadWrite);
    EXPECT_TRUE(HeaderSaysWal(path));  // while it writes
    {
      Store other = Store::Open(path, OpenMode::kReadWrite);
      EXPECT_FALSE(other.LeaveWalMode());  // not while another connection has it open
    }
    EXPECT_TRUE(writer.LeaveWalMode());
  }
  EXPECT_FALSE(HeaderSaysWal(path));
  EXPECT_TRUE(SideFiles(path).empty());
}

// A copy of the main file alone (what `cp` of a database at rest makes) holds every row.
void ExpectACopyOfTheFileAloneHolds(const TempDir& dir, const std::string& path, std::size_t rows) {
  const std::string copy = dir.File("copy-" + fs::path(path).filename().string());
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
  Store store = Store::Open(copy, OpenMode::kReadOnly);
  EXPECT_EQ(store.ListMeasurements({}).size(), rows);
  EXPECT_TRUE(store.FullCheck().empty());
}

// A reader that outlives a writer keeps it from cleaning up; the reader, closing last, does it: the
// file at rest is one self-contained file in rollback mode (a writer's -wal and -shm stayed before).
TEST(OpenForReading, AReaderThatClosesLastLeavesOneSelfContainedFile) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  std::size_t rows = 0;
  {
    std::optional<Store> writer = Store::Open(path, OpenMode::kReadWrite);
    Store reader = Store::Open(path, OpenMode::kReadOnly);
    const auto gpu = writer->EnsureGpu(SampleGpu("GPU-C"));
    const auto sweep = writer->StartSweep(gpu, writer->EnsureTemplate({"transpose", "hash-a", ""}), SampleSweep());
    for (int tile = 1; tile <= 200; ++tile) writer->AddMeasurement(sweep, SampleMeasurement(tile, 0.01 * tile));
    writer.reset();
    EXPECT_EQ(SideFiles(path).size(), 2u);  // the writer could not fold its log in
    rows = reader.ListMeasurements({}).size();
  }
  EXPECT_EQ(rows, 216u);
  EXPECT_TRUE(SideFiles(path).empty()) << ::testing::PrintToString(SideFiles(path));
  EXPECT_FALSE(HeaderSaysWal(path));
  ExpectACopyOfTheFileAloneHolds(dir, path, rows);
}

// A log left behind by connections that did not tidy (a killed writer, another program): read
// through, and folded in by the first reader who may write the file.
TEST(OpenForReading, ALogLeftBehindIsReadAndFoldedInByTheNextToClose) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  {
    std::optional<sql::Connection> writer(std::in_place, path, sql::Connection::Mode::kReadWrite);
    writer->Execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
    sql::Connection reader(path, sql::Connection::Mode::kReadOnly);
    reader.QueryInt("SELECT COUNT(*) FROM measurements");  // holds the file: no checkpoint at close
    writer->Execute("UPDATE measurements SET time_ms_median = 0.001 WHERE id = 1");
    writer.reset();
  }  // a read-only connection closing last cannot fold the log in
  ASSERT_EQ(SideFiles(path).size(), 2u);
  EXPECT_DOUBLE_EQ(Store::Open(path, OpenMode::kReadOnly).BestForLookup("transpose").front().measurement.time_ms_median,
                   0.001);
  EXPECT_TRUE(SideFiles(path).empty()) << ::testing::PrintToString(SideFiles(path));
  EXPECT_FALSE(HeaderSaysWal(path));
  ExpectACopyOfTheFileAloneHolds(dir, path, 16);
}

// A -wal without its -shm (copied without it, or a writer killed while deleting them): SQLite would
// create the -shm to read it, so a reader who may not write there refuses and says how to fold the
// log in; one who may reads it and folds it in.
TEST(OpenForReading, ALogWithoutItsIndexIsRefusedUntouchedByThoseWhoMayNotWrite) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  const std::string copy = dir.File("copy.db");
  {
    sql::Connection writer(path, sql::Connection::Mode::kReadWrite);
    writer.Execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
    writer.Execute("UPDATE measurements SET time_ms_median = 0.001 WHERE id = 1");
    fs::copy_file(path, copy);
    fs::copy_file(path + "-wal", copy + "-wal");
  }
  ASSERT_EQ(chmod(copy.c_str(), 0444), 0);
  ASSERT_EQ(chmod((copy + "-wal").c_str(), 0444), 0);
  const std::string before = ReadBytes(copy);
  const auto run = tuner::testing::RunUnprivileged([&]() -> std::string {
    try {
      Store::Open(copy, OpenMode::kReadOnly);
      return "read a log without its index";
    } catch (const std::runtime_error& e) {
      if (std::string(e.what()).find("tuner db upgrade --db " + copy) == std::string::npos) return e.what();
    }
    return "";
  });
  if (run.ran) {
    EXPECT_EQ(run.result, "");
    EXPECT_EQ(ReadBytes(copy), before);
    EXPECT_FALSE(fs::exists(copy + "-shm"));
  }
  ASSERT_EQ(chmod(copy.c_str(), 0644), 0);
  EXPECT_DOUBLE_EQ(Store::Open(copy, OpenMode::kReadOnly).BestForLookup("transpose").front().measurement.time_ms_median,
                   0.001);
  EXPECT_TRUE(SideFiles(copy).empty());
}

TEST(Open, ADirectoryIsAUsageErrorNamingIt) {
  TempDir dir;
  const std::string folder = dir.File("results");
  fs::create_directories(folder);
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite}) {
    try {
      Store::Open(folder, mode);
      ADD_FAILURE() << "opened a directory";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(folder + "' is a directory"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(FilesIn(folder), 0u);
}

// params_json of the best row per (template version hash, GPU uuid, size), as BestPerGpu and the
// lookup copy see them; the two must agree.
std::map<std::string, std::string> BestParams(Store& store, const std::string& templ) {
  std::map<std::string, std::string> best;
  for (const MeasurementRow& row : store.BestPerGpu(templ, ""))
    best[row.templ.hash + " " + row.gpu.uuid + " " + row.size_key] = row.measurement.params_json;
  std::map<std::string, std::string> lookup;
  for (const MeasurementRow& row : store.BestForLookup(templ))
    lookup[row.templ.hash + " " + row.gpu.uuid + " " + row.size_key] = row.measurement.params_json;
  EXPECT_EQ(best, lookup);
  return best;
}

TEST(Migration, VersionFourGainsTheBestRowOfEveryGroup) {
  TempDir dir;
  for (OpenMode mode : {OpenMode::kReadWrite, OpenMode::kReadOnly}) {
    const std::string path = dir.File(mode == OpenMode::kReadOnly ? "ro.db" : "rw.db");
    fs::copy_file(TUNER_FIXTURES_DIR "/schema_v4.db", path);
    Store store = Store::Open(path, mode);
    const std::map<std::string, std::string> transpose = {{"new-hash GPU-aaaa 8192x8192", "{\"TILE\":64}"},
                                                          {"new-hash GPU-bbbb 8192x8192", "{\"TILE\":32}"},
                                                          {"old-hash GPU-aaaa 8192x8192", "{\"TILE\":16}"}};
    EXPECT_EQ(BestParams(store, "transpose"), transpose);
    const std::map<std::string, std::string> reduction = {{"red-hash GPU-cccc 1048576", "{\"BLOCK\":256}"}};
    EXPECT_EQ(BestParams(store, "reduction"), reduction);
    EXPECT_TRUE(store.FullCheck().empty());
    const auto lookup = store.BestForLookup("transpose");
    ASSERT_EQ(lookup.size(), 3u);
    EXPECT_EQ(lookup[0].stale, lookup[0].templ.hash == "old-hash");
    EXPECT_FALSE(lookup[0].measurement.launch_json.empty());
    EXPECT_EQ(store.SchemaVersion(), mode == OpenMode::kReadOnly ? 4 : kSchemaVersion);
  }
  EXPECT_EQ(CheckFileHeader(dir.File("rw.db")).schema_version, kSchemaVersion);
  EXPECT_EQ(CheckFileHeader(dir.File("ro.db")).schema_version, 4);
}

// Version 5 (tests/fixtures/schema_v5.db, make_schema_v5.sh) gains the hardware columns, empty for
// its rows; its best rows stay, and a row measured after the upgrade keeps its counters and energy.
TEST(Migration, VersionFiveGainsEmptyCountersAndEnergy) {
  TempDir dir;
  for (OpenMode mode : {OpenMode::kReadWrite, OpenMode::kReadOnly}) {
    const std::string path = dir.File(mode == OpenMode::kReadOnly ? "ro.db" : "rw.db");
    fs::copy_file(TUNER_FIXTURES_DIR "/schema_v5.db", path);
    Store store = Store::Open(path, mode);
    EXPECT_EQ(store.SchemaVersion(), mode == OpenMode::kReadOnly ? 5 : kSchemaVersion);
    const std::map<std::string, std::string> transpose = {{"new-hash GPU-aaaa 8192x8192", "{\"TILE\":64}"},
                                                          {"new-hash GPU-bbbb 8192x8192", "{\"TILE\":32}"},
                                                          {"old-hash GPU-aaaa 8192x8192", "{\"TILE\":16}"}};
    EXPECT_EQ(BestParams(store, "transpose"), transpose);
    for (const MeasurementRow& row : store.ListMeasurements({})) {
      EXPECT_EQ(row.measurement.counters_json, "");
      EXPECT_EQ(row.measurement.energy_j, 0);
      EXPECT_EQ(row.measurement.perf_per_joule, 0);
    }
    EXPECT_TRUE(store.FullCheck().empty());
  }
  EXPECT_EQ(CheckFileHeader(dir.File("rw.db")).schema_version, kSchemaVersion);
  EXPECT_EQ(CheckFileHeader(dir.File("ro.db")).schema_version, 5) << "reading never upgrades the file";

  Store store = Store::Open(dir.File("rw.db"), OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(SampleGpu());
  const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "new-hash", ""}), SampleSweep());
  MeasurementRecord measured = SampleMeasurement(32, 1.0);
  measured.counters_json = R"({"shared_bank_conflicts_per_request":0.0})";
  measured.energy_j = 0.0012;
  measured.power_w = 410;
  measured.energy_launch_ms = 2.9;
  measured.perf_per_joule = 3.5;
  store.AddMeasurement(sweep, measured);
  const auto stored =
      store.Measurements(gpu, store.EnsureTemplate({"transpose", "new-hash", ""}), SampleSweep().size_key);
  bool found = false;
  for (const MeasurementRecord& r : stored) {
    if (r.params_json != measured.params_json) continue;
    found = true;
    EXPECT_EQ(r.counters_json, measured.counters_json);
    EXPECT_EQ(r.energy_j, measured.energy_j);
    EXPECT_EQ(r.power_w, measured.power_w);
    EXPECT_EQ(r.energy_launch_ms, measured.energy_launch_ms);
    EXPECT_EQ(r.perf_per_joule, measured.perf_per_joule);
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(store.BestForLookup("transpose").size(), 4u) << "the lookup reads the new columns as empty";
}

// Version 6 (tests/fixtures/schema_v6.db, make_schema_v6.sh) gains the timing mode: every row it
// holds was timed isolated, its counters and energy stay, and its best rows are the same; a row timed
// in graph mode after the upgrade is kept beside them, never ranked with them.
TEST(Migration, VersionSixRowsWereTimedIsolatedAndKeepTheirBest) {
  TempDir dir;
  const std::map<std::string, std::string> transpose = {{"new-hash GPU-aaaa 8192x8192", "{\"TILE\":64}"},
                                                        {"new-hash GPU-bbbb 8192x8192", "{\"TILE\":32}"},
                                                        {"old-hash GPU-aaaa 8192x8192", "{\"TILE\":16}"}};
  for (OpenMode mode : {OpenMode::kReadWrite, OpenMode::kReadOnly}) {
    const std::string path = dir.File(mode == OpenMode::kReadOnly ? "ro.db" : "rw.db");
    fs::copy_file(TUNER_FIXTURES_DIR "/schema_v6.db", path);
    Store store = Store::Open(path, mode);
    EXPECT_EQ(store.SchemaVersion(), mode == OpenMode::kReadOnly ? 6 : kSchemaVersion);
    EXPECT_EQ(BestParams(store, "transpose"), transpose);
    bool energy_kept = false;
    for (const MeasurementRow& row : store.ListMeasurements({})) {
      EXPECT_EQ(row.measurement.timing_mode, "isolated");
      energy_kept |=
          row.measurement.energy_j == 0.0021 && row.measurement.counters_json == R"({"dram_throughput_pct":81.5})";
    }
    EXPECT_TRUE(energy_kept) << "version 6's columns survive the migration";
    for (const MeasurementRow& row : store.ListMeasurements({})) {
      EXPECT_EQ(row.measurement.tie_rank, 0) << "through version 8: in no tie";
      EXPECT_EQ(row.measurement.revalidation, "");
    }
    for (const MeasurementRow& row : store.BestForLookup("transpose"))
      EXPECT_EQ(row.measurement.timing_mode, "isolated");
    EXPECT_TRUE(store.FullCheck().empty());
  }
  EXPECT_EQ(CheckFileHeader(dir.File("rw.db")).schema_version, kSchemaVersion);
  EXPECT_EQ(CheckFileHeader(dir.File("ro.db")).schema_version, 6) << "reading never upgrades the file";

  Store store = Store::Open(dir.File("rw.db"), OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(SampleGpu("GPU-aaaa"));
  const auto templ = store.EnsureTemplate({"transpose", "new-hash", ""});
  const auto sweep = store.StartSweep(gpu, templ, SampleSweep());
  MeasurementRecord graph = SampleMeasurement(128, 0.11);  // faster than the isolated best, 0.15 ms
  graph.timing_mode = "graph";
  store.AddMeasurement(sweep, graph);
  EXPECT_TRUE(store.FullCheck().empty()) << "best_per_gpu keeps one best row per mode";
  std::map<std::string, std::string> per_mode;
  for (const std::string timing : {"isolated", "graph"})
    for (const MeasurementRow& row : store.BestPerGpu("transpose", "", timing))
      if (row.gpu.uuid == "GPU-aaaa" && !row.stale) per_mode[timing] = row.measurement.params_json;
  EXPECT_EQ(per_mode["isolated"], "{\"TILE\":64}") << "the graph row is never ranked against isolated ones";
  EXPECT_EQ(per_mode["graph"], "{\"TILE\":128,\"ROWS\":4}");
}

// The ties-and-toolchains migration (kTrustSchemaVersion): older rows are in no tie, know their
// sweep's NVRTC as their toolchain, and the best rows stay; a tie stored afterwards ranks its chosen
// member first in best_per_gpu, its view and the lookup, which reads the toolchain, within its
// timing mode: clearing the isolated tie leaves the graph one.
TEST(Migration, OlderRowsGainTheirSweepsNvrtcAndNoTie) {
  TempDir dir;
  const std::string path = dir.File("rw.db");
  fs::copy_file(TUNER_FIXTURES_DIR "/schema_v5.db", path);
  Store store = Store::Open(path, OpenMode::kReadWrite);
  const std::map<std::string, std::string> transpose = {{"new-hash GPU-aaaa 8192x8192", "{\"TILE\":64}"},
                                                        {"new-hash GPU-bbbb 8192x8192", "{\"TILE\":32}"},
                                                        {"old-hash GPU-aaaa 8192x8192", "{\"TILE\":16}"}};
  EXPECT_EQ(BestParams(store, "transpose"), transpose);
  for (const MeasurementRow& row : store.ListMeasurements({})) {
    EXPECT_EQ(row.measurement.tie_rank, 0);
    EXPECT_EQ(row.measurement.toolchain, "nvrtc 13.0");
    EXPECT_EQ(row.measurement.revalidation, "");
  }
  for (const MeasurementRow& row : store.BestForLookup("transpose")) EXPECT_EQ(row.measurement.toolchain, "nvrtc 13.0");
  EXPECT_TRUE(store.FullCheck().empty());

  const auto gpu = store.EnsureGpu(SampleGpu());
  const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "new-hash", ""}), SampleSweep("64x64"));
  MeasurementRecord fastest = SampleMeasurement(8, 1.0), chosen = SampleMeasurement(4, 1.01);
  fastest.tie_ms = chosen.tie_ms = 1.0;
  fastest.tie_rank = 2;
  chosen.tie_rank = 1;
  store.AddMeasurement(sweep, fastest);
  store.AddMeasurement(sweep, chosen);
  store.AddMeasurement(sweep, SampleMeasurement(2, 1.005));  // in no tie: after its members
  // A tie of the same size timed in graph mode: ranked apart, and not cleared with the isolated one.
  MeasurementRecord graph_fastest = fastest, graph_chosen = chosen;
  graph_fastest.timing_mode = graph_chosen.timing_mode = "graph";
  store.AddMeasurement(sweep, graph_fastest);
  store.AddMeasurement(sweep, graph_chosen);
  for (const std::string timing : {"isolated", "graph"})
    for (const MeasurementRow& row : store.BestPerGpu("transpose", "new-hash", timing))
      if (row.size_key == "64x64") {
        EXPECT_EQ(row.measurement.params_json, chosen.params_json) << timing;
      }
  {
    sql::Connection connection(path, sql::Connection::Mode::kReadOnly);
    sql::Statement view(connection, "SELECT params_json FROM best_per_model WHERE size_key = '64x64'");
    for (int mode = 0; mode < 2; ++mode) {  // one best per timing mode
      ASSERT_TRUE(view.Step());
      EXPECT_EQ(view.Text(0), chosen.params_json);
    }
    EXPECT_FALSE(view.Step());
  }
  EXPECT_TRUE(store.FullCheck().empty());
  store.ClearTie(sweep, "isolated");
  for (const std::string timing : {"isolated", "graph"})
    for (const MeasurementRow& row : store.BestPerGpu("transpose", "new-hash", timing))
      if (row.size_key == "64x64") {
        EXPECT_EQ(row.measurement.params_json, (timing == "graph" ? chosen : fastest).params_json) << timing;
      }
  EXPECT_TRUE(store.FullCheck().empty());
}

TEST(BestPerGpu, FollowsEveryChangeOfAMeasurement) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(SampleGpu());
  const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h", ""}), SampleSweep());
  auto best = [&] {
    const auto rows = BestParams(store, "transpose");
    EXPECT_TRUE(store.FullCheck().empty());
    return rows.empty() ? std::string("none") : rows.begin()->second;
  };
  const auto params = [](int tile) { return SampleMeasurement(tile, 1).params_json; };
  store.AddMeasurement(sweep, SampleMeasurement(16, 2.0));
  store.AddMeasurement(sweep, SampleMeasurement(32, 1.0));
  EXPECT_EQ(best(), params(32));
  store.AddMeasurement(sweep, SampleMeasurement(32, 3.0));  // measured again, slower
  EXPECT_EQ(best(), params(16));
  store.AddMeasurement(sweep, SampleMeasurement(64, 0.5, "wrong_result"));
  EXPECT_EQ(best(), params(16));
  store.AddMeasurement(sweep, SampleMeasurement(64, 0.5));  // fixed: now right and fastest
  EXPECT_EQ(best(), params(64));
  store.AddMeasurement(sweep, SampleMeasurement(8, 0.5));  // a tie: the first stored stays
  EXPECT_EQ(best(), params(64));
  for (int tile : {8, 16, 32, 64}) store.AddMeasurement(sweep, SampleMeasurement(tile, 0, "fault"));
  EXPECT_EQ(best(), "none");
}

// best_per_gpu's triggers look up a group's fastest row by the tie rule at every insert: through an
// index in that order (schema version 9), not by sorting the group, which made an import of 11,130
// rows into one group take minutes. Fresh and migrated files both have it.
TEST(BestPerGpu, AGroupsFastestRowIsFoundThroughAnIndexNotASort) {
  TempDir dir;
  fs::copy_file(TUNER_FIXTURES_DIR "/schema_v6.db", dir.File("old.db"));
  for (const std::string name : {"fresh.db", "old.db"}) {
    { Store::Open(dir.File(name), OpenMode::kReadWrite); }
    sql::Connection connection(dir.File(name), sql::Connection::Mode::kReadOnly);
    sql::Statement plan(connection, std::string("EXPLAIN QUERY PLAN SELECT id FROM measurements WHERE template_id = 1 "
                                                "AND gpu_id = 1 AND size_key = 'x' AND timing_mode = 'graph' AND "
                                                "status = 'ok' ORDER BY ") +
                                        kFastestFirstSql + " LIMIT 1");
    std::string steps;
    while (plan.Step()) steps += plan.Text(3) + "; ";
    EXPECT_NE(steps.find("USING INDEX measurements_fastest"), std::string::npos) << name << ": " << steps;
    EXPECT_EQ(steps.find("TEMP B-TREE"), std::string::npos) << name << ": " << steps;
  }
}

TEST(FullCheck, FindsBestRowsThatDisagreeWithTheMeasurements) {
  TempDir dir;
  const std::string path = MakeDatabase(dir, "t.db");
  {
    sql::Connection connection(path, sql::Connection::Mode::kReadWrite);
    connection.Execute("DELETE FROM best_per_gpu WHERE size_key = '4096x4096'");
  }
  const auto problems = Store::Open(path, OpenMode::kReadOnly).FullCheck();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "2 row(s) of best_per_gpu disagree with the measurements");
}

}  // namespace
}  // namespace tuner::db
