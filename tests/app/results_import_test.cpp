// tuner import kernel-tuner-cache|t4: published results stored as a sweep, replayed by simulate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
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

// The fixture cache with one change made by `edit` on its JSON, written to dir/NAME.
std::string EditedCache(const ImportFixture& f, const std::string& name, const std::function<void(json&)>& edit) {
  json doc = json::parse(testing::ReadFileText(kResults + "vector_add_cache.json"));
  edit(doc);
  const std::string path = f.dir.File(name);
  std::ofstream(path) << doc.dump(1);
  return path;
}

// Published rows are checked as `db import` checks its rows: one clear message, exit 2, no database.
TEST(ResultsImport, ImportedRowsAreCheckedAsMeasuredOnesAre) {
  ImportFixture f;
  const std::vector<std::pair<std::function<void(json&)>, std::string>> cases = {
      {[](json& d) { d["device_name"] = "NVIDIA\nH200"; }, "gpu.name is \"NVIDIA\\nH200\""},
      {[](json& d) { d["device_name"] = "\x1b[2J\x1b[31mH200"; }, "gpu.name is \"\\u001b[2J"},
      {[](json& d) { d["device_name"] = std::string(100'000, 'H'); }, "bytes in one string value"},
      {[](json& d) { d["cache"]["32,1"]["time"] = 0; }, "measurement.time_ms_median is 0"},
      {[](json& d) { d["cache"]["32,1"]["time"] = 1e-300; }, "measurement.time_ms_median is 1e-300"},
      {[](json& d) { d["cache"]["32,1"]["timestamp"] = "2024-02-30 10:00:00+00:00"; }, "a time that does not exist"}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string file = EditedCache(f, "bad" + std::to_string(i) + ".json", cases[i].first);
    const auto r = f.Import("kernel-tuner-cache", file);
    EXPECT_EQ(r.exit_code, 2) << cases[i].second;
    EXPECT_NE(r.err.find(cases[i].second), std::string::npos) << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 1000u);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(f.db));
  }
  for (const char* name : {"../../evil", "'a\nb'"}) {
    const auto r = RunCommand(kTuner + " import kernel-tuner-cache " + kResults + "vector_add_cache.json --template " +
                              name + " --allow-unknown-template --db " + f.db);
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find("--template: template.name is"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(f.db));
  }
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

TEST(ResultsImport, ATemplateNotAtHandIsRefusedUnlessAllowed) {
  ImportFixture f;
  const std::string import = kTuner + " import kernel-tuner-cache " + kResults +
                             "vector_add_cache.json --template vector_add --db " + f.db + " --json";
  const auto refused = RunCommand(import);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("pass --allow-unknown-template"), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(f.db));
  const auto allowed = RunCommand(import + " --allow-unknown-template");
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_EQ(json::parse(allowed.out)["configurations"], 22);
}

// A database holding an imported sweep merges, and its export imports again, the rows unchanged.
TEST(ResultsImport, ADatabaseWithAnImportedSweepMergesExportsAndImportsAgain) {
  ImportFixture f;
  ASSERT_EQ(f.Import("kernel-tuner-cache", kResults + "vector_add_cache.json").exit_code, 0);
  const std::string exported = f.dir.File("rows.jsonl"), merged = f.dir.File("merged.db"),
                    back = f.dir.File("back.db");
  const auto out = RunCommand(kTuner + " db export --db " + f.db + " -o " + exported);
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto in = RunCommand(kTuner + " db import " + exported + " --templates " + f.kernels + " --db " + back);
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_NE(in.out.find("22 added"), std::string::npos) << in.out;
  const auto merge = RunCommand(kTuner + " db merge " + f.db + " --templates " + f.kernels + " --db " + merged);
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  const auto again = RunCommand(kTuner + " db export --db " + back + " -o " + f.dir.File("again.jsonl"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(testing::ReadFileText(f.dir.File("again.jsonl")), testing::ReadFileText(exported));
}

}  // namespace
}  // namespace tuner
