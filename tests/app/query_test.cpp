// tuner query through the built binary: exit codes, the text and the JSON document.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "cuda/device.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "sweep/current_toolchain.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::testing::TempDir;

using testing::RunTuner;

std::string ShippedHash(const std::string& name) { return LoadTemplateLibrary(TemplateSearchDirs({})).Find(name).hash; }

// Results of the shipped transpose template (current version) at two sizes on an H100.
std::string MakeDatabase(const TempDir& dir) {
  const std::string path = dir.File("q.db");
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(db::testing::SampleGpu());
  const auto templ = store.EnsureTemplate({"transpose", ShippedHash("transpose"), ""});
  for (const char* size : {"4096x4096", "16384x16384"}) {
    const auto sweep = store.StartSweep(gpu, templ, db::testing::SampleSweep(size));
    store.AddMeasurement(sweep, db::testing::SampleMeasurement(32, 1.0));
    store.AddMeasurement(sweep, db::testing::SampleMeasurement(64, 0.5));
  }
  return path;
}

TEST(QueryCommand, EmptyDatabaseExitsOne) {
  TempDir dir;
  { db::Store::Open(dir.File("empty.db"), db::OpenMode::kReadWrite); }
  EXPECT_EQ(RunTuner("query transpose --size 8192x8192 --db " + dir.File("empty.db")).exit_code, 1);
  EXPECT_EQ(RunTuner("query transpose --size 8192x8192 --db " + dir.File("missing.db")).exit_code, 1);
  EXPECT_EQ(RunTuner("query no_such_kernel --db " + dir.File("empty.db")).exit_code, 1);
}

TEST(QueryCommand, BadUsageExitsTwo) {
  TempDir dir;
  const std::string db = MakeDatabase(dir);
  EXPECT_EQ(RunTuner("query transpose --size 8192y8192 --db " + db).exit_code, 2);
  EXPECT_EQ(RunTuner("query transpose --size 1x2x3 --db " + db).exit_code, 2);
  EXPECT_EQ(RunTuner("query transpose --size 0x8 --db " + db).exit_code, 2);
  EXPECT_EQ(RunTuner("query transpose --gpu 0 --device H100 --db " + db).exit_code, 2);
  EXPECT_EQ(RunTuner("query --db " + db).exit_code, 2);
  EXPECT_EQ(RunTuner("query transpose --bogus --db " + db).exit_code, 2);
}

// --dispatch is the library's Dispatch for this machine's GPU (tests/python/test_gpu.py runs it on
// one): a stored model by name, another timing mode or objective are refused, before the database.
TEST(QueryCommand, DispatchNeedsThisMachinesGpuAndTheLibrarysChoice) {
  TempDir dir;
  const std::string db = MakeDatabase(dir);
  for (const char* other : {"--device H100", "--timing graph", "--objective energy"}) {
    const testing::CliResult r = RunTuner("query transpose --dispatch " + std::string(other) + " --db " + db);
    EXPECT_EQ(r.exit_code, 2) << other;
    EXPECT_NE(r.err.find("--dispatch"), std::string::npos) << r.err;
  }
  if (!DiscoverGpus().gpus.empty()) GTEST_SKIP() << "a GPU is present: --dispatch answers instead of exit 3";
  const testing::CliResult r = RunTuner("query transpose --size 4096x4096 --dispatch --db " + db);
  EXPECT_EQ(r.exit_code, 3) << r.err;
}

TEST(QueryCommand, ExactSizeAsJson) {
  TempDir dir;
  const testing::CliResult r =
      RunTuner("query transpose --device h100 --size 4096x4096 --json --db " + MakeDatabase(dir));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 1u);
  const auto& best = doc["results"][0];
  EXPECT_EQ(best["status"], "found");
  EXPECT_EQ(best["fallback"], "exact");
  EXPECT_EQ(best["params"]["TILE"], 64);
  EXPECT_EQ(best["launch"]["block"][0], 64);
  EXPECT_DOUBLE_EQ(best["time_ms"]["median"].get<double>(), 0.5);
  EXPECT_EQ(best["from"]["gpu"]["uuid"], "GPU-1111");
}

// A sweep split across two cards of one model (tune --gpus): the model's best is that of the union,
// whichever card measured it; the result names that card.
TEST(QueryCommand, TheCardsOfOneModelAreOneSweep) {
  TempDir dir;
  const std::string path = dir.File("split.db");
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    const auto templ = store.EnsureTemplate({"transpose", ShippedHash("transpose"), ""});
    const auto first = store.StartSweep(store.EnsureGpu(db::testing::SampleGpu("GPU-aaaa")), templ,
                                        db::testing::SampleSweep("4096x4096"));
    const auto second = store.StartSweep(store.EnsureGpu(db::testing::SampleGpu("GPU-bbbb")), templ,
                                         db::testing::SampleSweep("4096x4096"));
    store.AddMeasurement(first, db::testing::SampleMeasurement(16, 2.0));
    store.AddMeasurement(first, db::testing::SampleMeasurement(32, 1.0));
    store.AddMeasurement(second, db::testing::SampleMeasurement(64, 0.5));
    store.AddMeasurement(second, db::testing::SampleMeasurement(128, 3.0));
  }
  const testing::CliResult r = RunTuner("query transpose --device H100 --size 4096x4096 --json --db " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto results = nlohmann::json::parse(r.out)["results"];
  ASSERT_EQ(results.size(), 1u) << "one model, one result";
  EXPECT_EQ(results[0]["fallback"], "exact");
  EXPECT_EQ(results[0]["params"]["TILE"], 64);
  EXPECT_EQ(results[0]["from"]["gpu"]["uuid"], "GPU-bbbb");
  EXPECT_EQ(results[0]["gpu"]["uuid"], "") << "asked for the model";
}

// An object's keys in order, separated by spaces.
std::string Keys(const nlohmann::ordered_json& object) {
  std::string keys;
  for (const auto& item : object.items()) keys += (keys.empty() ? "" : " ") + item.key();
  return keys;
}

// The keys of a result are a contract scripts read (the Python package reads this document): in this order.
// A graph result tuned after the isolated ones is served by default, and never ranked against them:
// --timing picks a mode, and a mode with no result says so (exit 1).
TEST(QueryCommand, TimingSelectsAModeAndModesAreNeverMixed) {
  TempDir dir;
  const std::string db = MakeDatabase(dir);
  {
    db::Store store = db::Store::Open(db, db::OpenMode::kReadWrite);
    const auto gpu = store.EnsureGpu(db::testing::SampleGpu());
    const auto templ = store.EnsureTemplate({"transpose", ShippedHash("transpose"), ""});
    const auto sweep = store.StartSweep(gpu, templ, db::testing::SampleSweep("4096x4096"));
    db::MeasurementRecord graph = db::testing::SampleMeasurement(32, 0.8);  // slower than isolated TILE=64
    graph.timing_mode = "graph";
    graph.measured_at = "2099-01-01T00:00:00Z";
    store.AddMeasurement(sweep, graph);
  }
  const auto Best = [&](const std::string& args) {
    const testing::CliResult r = RunTuner("query transpose --device h100 --size 4096x4096 --json --db " + db + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out)["results"][0] : nlohmann::json();
  };
  EXPECT_EQ(Best("")["timing_mode"], "graph");
  EXPECT_EQ(Best("")["params"]["TILE"], 32);
  EXPECT_EQ(Best(" --timing isolated")["params"]["TILE"], 64);
  EXPECT_EQ(Best(" --timing graph")["time_ms"]["median"], 0.8);
  const testing::CliResult none = RunTuner("query transpose --device h100 --timing back_to_back --db " + db);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no successful result of 'transpose' timed back_to_back"), std::string::npos) << none.err;
}

TEST(QueryCommand, JsonKeepsItsKeys) {
  TempDir dir;
  const testing::CliResult r =
      RunTuner("query transpose --device h100 --size 4096x4096 --json --db " + MakeDatabase(dir));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto best = nlohmann::ordered_json::parse(r.out)["results"][0];
  EXPECT_EQ(
      Keys(best),
      "gpu status note fallback from template_hash stale params launch time_ms perf regs_per_thread smem_bytes "
      "blocks_per_sm occupancy limiter measured_at timing_mode counters energy_j energy_launch_ms "
      "perf_per_joule perf_per_joule_unit power_w toolchain other_toolchain toolchain_note revalidation tie_rank");
  EXPECT_EQ(best["timing_mode"], "isolated");
  EXPECT_EQ(Keys(best["time_ms"]), "median min max spread samples");
  EXPECT_EQ(Keys(best["perf"]), "value unit");
  EXPECT_TRUE(best["energy_j"].is_null());  // not measured
}

TEST(QueryCommand, NearestSizeAndDefaultsAreReported) {
  TempDir dir;
  const std::string db = MakeDatabase(dir);
  // --size 5000 is completed with H's default 8192; 5000x8192 is nearer 4096x4096 (log distance
  // 0.72) than 16384x16384 (1.37).
  const testing::CliResult r = RunTuner("query transpose --device H100 --size 5000 --json --db " + db);
  ASSERT_EQ(r.exit_code, 0);
  const auto best = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(best["fallback"], "nearest_size");
  EXPECT_EQ(best["from"]["size"], "4096x4096");
  EXPECT_EQ(nlohmann::json::parse(r.out)["size"], "5000x8192");
  const testing::CliResult text = RunTuner("query transpose --device H100 --size 12000x12000 --db " + db);
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("nearest tuned size 16384x16384 (asked 12000x12000)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("TILE=64"), std::string::npos) << text.out;
}

// A GPU name with a terminal's escapes (stored by an older import, or another program) is shown
// escaped: it cannot clear the screen or recolour what follows.
TEST(QueryCommand, AGpuNameIsShownWithItsControlCharactersEscaped) {
  TempDir dir;
  const std::string path = dir.File("q.db");
  {
    db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
    const auto gpu = store.EnsureGpu(db::testing::SampleGpu("GPU-1", "H100\x1b[2J\x1b[31m"));
    const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", ShippedHash("transpose"), ""}),
                                        db::testing::SampleSweep("4096x4096"));
    store.AddMeasurement(sweep, db::testing::SampleMeasurement(64, 0.5));
  }
  const testing::CliResult r = RunTuner("query transpose --device H100 --size 4096x4096 --db " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("H100\\x1b[2J\\x1b[31m"), std::string::npos) << r.out;
}

// A result measured with another driver, runtime or NVRTC than this machine's says so; one of this
// machine's toolchain does not.
TEST(QueryCommand, SaysWhenAResultComesFromAnotherToolchain) {
  for (const bool other : {true, false}) {
    TempDir dir;
    const std::string path = dir.File("toolchain.db");
    {
      db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
      const auto sweep = store.StartSweep(store.EnsureGpu(db::testing::SampleGpu()),
                                          store.EnsureTemplate({"transpose", ShippedHash("transpose"), ""}),
                                          db::testing::SampleSweep("4096x4096"));
      db::MeasurementRecord m = db::testing::SampleMeasurement(64, 0.5);
      m.toolchain = other ? "driver 1.0, runtime 1.0, nvrtc 1.0" : db::ToText(CurrentToolchain());
      store.AddMeasurement(sweep, m);
    }
    const std::string args = "query transpose --device h100 --size 4096x4096 --db " + path;
    const testing::CliResult json = RunTuner(args + " --json");
    ASSERT_EQ(json.exit_code, 0) << json.out << json.err;
    const auto best = nlohmann::json::parse(json.out)["results"][0];
    EXPECT_EQ(best["other_toolchain"], other);
    const testing::CliResult text = RunTuner(args);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    if (other) {
      EXPECT_EQ(best["toolchain"], "driver 1.0, runtime 1.0, nvrtc 1.0");
      const std::string note = best["toolchain_note"];
      EXPECT_NE(note.find("another toolchain (runtime 1.0 -> "), std::string::npos) << note;
      EXPECT_NE(text.out.find("note        measured with another toolchain"), std::string::npos) << text.out;
    } else {
      EXPECT_TRUE(best["toolchain_note"].is_null()) << best.dump();
      EXPECT_EQ(text.out.find("another toolchain"), std::string::npos) << text.out;
    }
  }
}

TEST(QueryCommand, CorruptDatabaseExitsFourAndIsUnchanged) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("bad.db"), std::string(4096, 'x'));
  EXPECT_EQ(RunTuner("query transpose --size 8192x8192 --db " + dir.File("bad.db")).exit_code, 4);
  EXPECT_EQ(db::testing::ReadBytes(dir.File("bad.db")), std::string(4096, 'x'));
}

}  // namespace
}  // namespace tuner
