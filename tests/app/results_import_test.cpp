// tuner import kernel-tuner-cache|t4: published results stored as a sweep, replayed by simulate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gzip_test_util.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using nlohmann::json;
using testing::RunCommand;

const std::string kTuner = TUNER_EXECUTABLE;
const std::string kResults = std::string(TUNER_FIXTURES_DIR) + "/results/";

// A T1-imported vector_add template in dir/kernels and a database path beside it.
struct ImportFixture {
  TempDir dir;
  std::string kernels = dir.File("kernels"), db = dir.File("t.db");
  ImportFixture() {
    const auto r = RunCommand(kTuner + " import t1 " + TUNER_FIXTURES_DIR + "/t1/vector_add.json -o " + kernels);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  testing::CliResult Import(const std::string& format, const std::string& file, const std::string& extra = "") {
    return RunCommand(kTuner + " import " + format + " " + file + " --template vector_add --templates " + kernels +
                      " --db " + db + " --json " + extra);
  }
};

TEST(ResultsImport, AKernelTunerCacheBecomesAnImportedSweepThatSimulateReplaysAndScores) {
  ImportFixture f;
  const auto first = f.Import("kernel-tuner-cache", kResults + "vector_add_cache.json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json out = json::parse(first.out);
  EXPECT_EQ(out["configurations"], 22);
  EXPECT_EQ(out["ok"], 20);
  EXPECT_EQ(out["failed"], 2);
  EXPECT_EQ(out["gpu_model"], "NVIDIA Test GPU");
  EXPECT_EQ(out["size"], "1000000");
  EXPECT_EQ(out["rows_changed"], 22);
  const auto again = f.Import("kernel-tuner-cache", kResults + "vector_add_cache.json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(json::parse(again.out)["rows_changed"], 0);  // the same file twice changes nothing

  const auto sim = RunCommand(kTuner + " simulate vector_add --templates " + f.kernels + " --db " + f.db +
                              " --runs 5 --strategy brute_force,random,annealing --json");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const json doc = json::parse(sim.out);
  ASSERT_EQ(doc["sweeps"].size(), 1u);
  const json& sweep = doc["sweeps"][0];
  EXPECT_TRUE(sweep["imported"].get<bool>());
  EXPECT_EQ(sweep["candidates"], 22);
  EXPECT_EQ(sweep["optimum"]["params"], json::parse(R"({"block_size_x":128,"tile_size":2})"));
  for (const json& s : sweep["strategies"]) {
    ASSERT_TRUE(s["methodology_score"].is_number()) << s.dump();
    EXPECT_LE(s["methodology_score"].get<double>(), 1.0);
  }

  // query answers from the imported sweep, and says so.
  const auto query = RunCommand(kTuner + " query vector_add --device 'Test GPU' --templates " + f.kernels + " --db " +
                                f.db + " --json");
  ASSERT_EQ(query.exit_code, 0) << query.err;
  const json answer = json::parse(query.out);
  const json& selection = answer["results"][0];
  EXPECT_TRUE(selection["from"]["imported"].get<bool>()) << query.out;
  EXPECT_EQ(selection["params"], json::parse(R"({"block_size_x":128,"tile_size":2})"));
  const auto text =
      RunCommand(kTuner + " query vector_add --device 'Test GPU' --templates " + f.kernels + " --db " + f.db);
  EXPECT_NE(text.out.find("published results of NVIDIA Test GPU, not measured here"), std::string::npos) << text.out;
}

TEST(ResultsImport, SimulateReplaysAutoAsTuneWouldChooseFromTheStoredCosts) {
  ImportFixture f;
  ASSERT_EQ(f.Import("kernel-tuner-cache", kResults + "vector_add_cache.json").exit_code, 0);
  const auto sim = RunCommand(kTuner + " simulate vector_add --templates " + f.kernels + " --db " + f.db +
                              " --runs 3 --strategy auto,random --json");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const json doc = json::parse(sim.out);
  const json& sweep = doc["sweeps"][0];
  // 22 candidates whose stored compiles take well under a second: tune would measure them all.
  EXPECT_EQ(sweep["auto"]["name"], "brute_force") << sweep.dump();
  EXPECT_NE(sim.err.find("auto: 22 candidates: brute force about"), std::string::npos) << sim.err;
  ASSERT_EQ(sweep["strategies"].size(), 2u);
  EXPECT_EQ(sweep["strategies"][0]["strategy"], "auto");
  EXPECT_EQ(sweep["strategies"][0]["evaluations_mean"], 22) << "brute force measures every candidate";
  const auto unknown =
      RunCommand(kTuner + " simulate vector_add --templates " + f.kernels + " --db " + f.db + " --strategy automatic");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("known: auto, brute_force"), std::string::npos) << unknown.err;
}

TEST(ResultsImport, AGzippedT4FileNeedsItsGpuModelNamed) {
  ImportFixture f;
  std::ofstream(f.dir.File("t4.json.gz"), std::ios::binary)
      << testing::Gzip(testing::ReadFileText(kResults + "vector_add_t4.json"));
  const auto unnamed = f.Import("t4", f.dir.File("t4.json.gz"));
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.err.find("does not name its GPU; name it with --gpu-model"), std::string::npos) << unnamed.err;
  EXPECT_FALSE(std::filesystem::exists(f.db));
  const auto named = f.Import("t4", f.dir.File("t4.json.gz"), "--gpu-model 'NVIDIA A100-PCIE-40GB'");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(json::parse(named.out)["ok"], 20);
  EXPECT_EQ(json::parse(named.out)["gpu_uuid"], "imported:NVIDIA A100-PCIE-40GB");
}

TEST(ResultsImport, WhatExportT4WritesImportsBackWithItsGpuModel) {
  ImportFixture f;
  ASSERT_EQ(f.Import("kernel-tuner-cache", kResults + "vector_add_cache.json").exit_code, 0);
  const auto exported = RunCommand(kTuner + " export t4 vector_add --templates " + f.kernels + " --db " + f.db +
                                   " -o " + f.dir.File("t4.json"));
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto back = RunCommand(kTuner + " import t4 " + f.dir.File("t4.json") + " --template vector_add --templates " +
                               f.kernels + " --db " + f.dir.File("back.db") + " --json");
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const json out = json::parse(back.out);
  EXPECT_EQ(out["gpu_model"], "NVIDIA Test GPU");  // the metadata's device_query name
  EXPECT_EQ(out["ok"], 20);
  EXPECT_EQ(out["failed"], 2);
}

TEST(ResultsImport, AMalformedFileIsRefusedNamingTheLineAndNothingIsStored) {
  ImportFixture f;
  std::string text = testing::ReadFileText(kResults + "vector_add_cache.json");
  const std::string time = "\"time\": 1.395625";
  text.replace(text.find(time), time.size(), "\"time\": null");
  std::ofstream(f.dir.File("bad.json")) << text;
  const auto r = f.Import("kernel-tuner-cache", f.dir.File("bad.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("line 10 (\"32,2\"), field time: is null, not a number of milliseconds"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(f.db));
  // A configuration the template's constraints exclude is refused too.
  text = testing::ReadFileText(kResults + "vector_add_cache.json");
  const std::string config = "\"block_size_x\": 1024, \"tile_size\": 2";
  text.replace(text.find(config), config.size(), "\"block_size_x\": 1024, \"tile_size\": 3");
  std::ofstream(f.dir.File("outside.json")) << text;
  const auto outside = f.Import("kernel-tuner-cache", f.dir.File("outside.json"));
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("block_size_x=1024 tile_size=3 is not a candidate of template 'vector_add'"),
            std::string::npos)
      << outside.err;
  EXPECT_NE(RunCommand(kTuner + " import t9 x").err.find("not a format"), std::string::npos);
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

// A value nested 100,000 deep once crashed the import (the copy and the message recursed); a GPU name
// of a mebibyte was copied into every row; a small gzip of spaces inflated whole into a message of
// a gibibyte. Each now stops at once, exit 2, with one short line naming the limit, storing nothing.
TEST(ResultsImport, EachLimitStopsTheImportInOneShortLineAndStoresNothing) {
  ImportFixture f;
  const std::string cache = testing::ReadFileText(kResults + "vector_add_cache.json");
  const std::string first = "\"block_size_x\": 32, \"tile_size\": 1,";
  std::ofstream(f.dir.File("deep.json")) << Replaced(
      cache, first, first + " \"deep\": " + std::string(100000, '[') + std::string(100000, ']') + ",");
  std::ofstream(f.dir.File("named.json"))
      << Replaced(cache, "\"NVIDIA Test GPU\"", "\"" + std::string(300, 'G') + "\"");
  std::ofstream(f.dir.File("spaces.json.gz"), std::ios::binary) << testing::Gzip(std::string(4 << 20, ' ') + "bad");
  const struct {
    std::string file, environment, expected;
  } cases[] = {{"deep.json", "",
                "line 9, column 115: more than 64 levels of nesting (the limit; raise it with TUNER_LIMIT_DEPTH=N)"},
               {"named.json", "", "is longer than 256 bytes; name it with --gpu-model"},
               {"named.json", "TUNER_LIMIT_VALUE_BYTES=100", "more than 100 bytes in one string value"},
               {"spaces.json.gz", "", "not JSON ("},
               {"spaces.json.gz", "TUNER_LIMIT_INPUT_BYTES=1000000", "more than 1000000 bytes of input text"},
               {"named.json", "TUNER_LIMIT_ENTRIES=5", "more than 5 entries in one list, object or file"}};
  for (const auto& c : cases) {
    const auto r = RunCommand("env " + c.environment + " " + kTuner + " import kernel-tuner-cache " +
                              f.dir.File(c.file) + " --template vector_add --templates " + f.kernels + " --db " + f.db);
    EXPECT_EQ(r.exit_code, 2) << c.file << " " << c.environment << ": " << r.err.substr(0, 500);
    EXPECT_NE(r.err.find(c.expected), std::string::npos)
        << c.file << " " << c.environment << ": " << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 500u) << r.err.substr(0, 500);
    EXPECT_FALSE(std::filesystem::exists(f.db));
  }
}

}  // namespace
}  // namespace tuner
