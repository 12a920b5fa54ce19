// Tune a kernel from an application, end to end on a GPU (skipped without one): the example
// application captures its histogram launch, `tuner tune` tunes the capture against the captured
// output, and the application's next run launches with the tuned configuration and checks itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "npy.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using testing::CliResult;
using testing::RunCommand;
using testing::RunTuner;

constexpr int kValues = 1 << 20;
constexpr int kBins = 256;

class CaptureGpu : public ::testing::Test {
 protected:
  CliResult App(const std::string& args, bool capture, const std::string& capture_dir = "") {
    const std::string env = capture ? "TUNER_CAPTURE=app_histogram TUNER_CAPTURE_DIR=" +
                                          (capture_dir.empty() ? dir_.File("") : capture_dir) + " "
                                    : "";
    return RunCommand(env + HISTOGRAM_APP + " " + args + " --db " + Db());
  }
  CliResult Tune(const std::string& capture, const std::string& extra = "") {
    return RunTuner("tune app_histogram --templates " + capture + " --json --db " + Db() + extra,
                    "XDG_CACHE_HOME=" + dir_.File("cache"));
  }
  std::string Db() const { return dir_.File("results.db"); }
  static std::string ParamsText(const nlohmann::json& params) {
    std::string text;
    for (const auto& [name, value] : params.items()) text += name + "=" + std::to_string(value.get<long long>()) + " ";
    return text;
  }

  TempDir dir_;
};

TEST_F(CaptureGpu, CaptureTuneAndRelaunchWithTheTunedConfiguration) {
  TUNER_GPU_TEST(1);
  const std::string args = "--n " + std::to_string(kValues) + " --bins " + std::to_string(kBins) + " --skew 0.9";
  const CliResult captured = App(args, true);
  ASSERT_EQ(captured.exit_code, 0) << captured.out << captured.err;
  EXPECT_NE(captured.out.find("configuration: default"), std::string::npos) << captured.out;
  EXPECT_NE(captured.err.find("tuner capture: app_histogram: wrote"), std::string::npos) << captured.err;
  const fs::path capture = dir_.File("capture-app_histogram");
  for (const char* file : {"app_histogram.toml", "histogram.cu", "data/data.npy", "expected/bins.npy"})
    EXPECT_TRUE(fs::is_regular_file(capture / file)) << file;
  EXPECT_FALSE(fs::exists(capture / "data" / "bins.npy"));  // zeroed before the launch: init "zero"
  const npy::Header bins_header = npy::ReadHeader((capture / "expected" / "bins.npy").string());
  const std::string bins = npy::ReadAll((capture / "expected" / "bins.npy").string(), bins_header);
  ASSERT_EQ(bins_header.Count(), static_cast<std::uint64_t>(kBins));
  const auto* counts = reinterpret_cast<const std::uint32_t*>(bins.data());
  EXPECT_GT(counts[7], static_cast<std::uint32_t>(0.89 * kValues));  // the skew the application asked for

  // A second capture never replaces the first.
  const auto first_time = fs::last_write_time(capture / "expected" / "bins.npy");
  ASSERT_EQ(App(args, true).exit_code, 0);
  EXPECT_TRUE(fs::is_regular_file(dir_.File("capture-app_histogram-2/app_histogram.toml")));
  EXPECT_EQ(fs::last_write_time(capture / "expected" / "bins.npy"), first_time);

  const CliResult tuned = Tune(capture.string());
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto doc = nlohmann::json::parse(tuned.out);
  EXPECT_EQ(doc.at("size"), std::to_string(kValues) + "x" + std::to_string(kBins));
  for (const auto& c : doc.at("candidates")) EXPECT_NE(c.at("status"), "wrong_result") << c.dump();
  ASSERT_FALSE(doc.at("best").is_null());
  const std::string best = ParamsText(doc["best"].at("params"));

  const CliResult relaunched = App(args, false);
  ASSERT_EQ(relaunched.exit_code, 0) << relaunched.out << relaunched.err;
  EXPECT_NE(relaunched.out.find("configuration: tuned"), std::string::npos) << relaunched.out;
  EXPECT_NE(relaunched.out.find("correct"), std::string::npos) << relaunched.out;
  for (const auto& [name, value] : doc["best"]["params"].items())
    EXPECT_NE(relaunched.out.find(name + "=" + std::to_string(value.get<long long>())), std::string::npos)
        << "best " << best << "\n"
        << relaunched.out;
}

// An application that runs its kernel at several sizes: each size's first launch is captured into
// one capture, `tune --sizes captured` tunes them all in one run with candidates compiled once, the
// report shows the loss matrix and the dispatch table, and the relaunched application takes each
// size's entry of that table (within 5% of the size's best) and checks its own output.
TEST_F(CaptureGpu, SeveralSizesAreCapturedTunedAndServedByTheDispatchTable) {
  TUNER_GPU_TEST(1);
  // 65536x256 twice: its second launch is not captured again.
  const std::string args = "--sizes 1048576x256,65536x256,4194304x4096,65536x256 --skew 0.5";
  const CliResult captured = App(args, true);
  ASSERT_EQ(captured.exit_code, 0) << captured.out << captured.err;
  const fs::path capture = dir_.File("capture-app_histogram");
  EXPECT_NE(captured.err.find("tuner capture: app_histogram: wrote"), std::string::npos) << captured.err;
  EXPECT_NE(captured.err.find("size 65536x256 added as " + (capture / "sizes" / "65536x256").string() + " (2 sizes"),
            std::string::npos)
      << captured.err;
  EXPECT_NE(captured.err.find("size 4194304x4096 added"), std::string::npos) << captured.err;
  for (const char* file : {"app_histogram.toml", "data/data.npy", "expected/bins.npy", "sizes/65536x256/data/data.npy",
                           "sizes/65536x256/expected/bins.npy", "sizes/4194304x4096/expected/bins.npy"})
    EXPECT_TRUE(fs::is_regular_file(capture / file)) << file;
  const std::string toml = db::testing::ReadBytes((capture / "app_histogram.toml").string());
  EXPECT_NE(toml.find("length = \"N\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("[[data_size]]\nsize = \"4194304x4096\""), std::string::npos) << toml;

  const CliResult tuned = Tune(capture.string(), " --sizes captured");
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto doc = nlohmann::json::parse(tuned.out);
  ASSERT_EQ(doc.at("sizes").size(), 3u);
  std::map<std::string, nlohmann::json> by_size;
  for (const auto& run : doc.at("sizes")) {
    by_size[run.at("size")] = run;
    for (const auto& c : run.at("candidates")) EXPECT_NE(c.at("status"), "wrong_result") << c.dump();
    ASSERT_FALSE(run.at("best").is_null());
  }
  EXPECT_EQ(doc["sizes"][0].at("size"), "1048576x256");
  for (std::size_t i = 1; i < 3; ++i) {  // compiled once, at the first size
    EXPECT_EQ(doc["sizes"][i].at("compiled_now"), 0) << doc["sizes"][i].at("size");
    EXPECT_GT(doc["sizes"][i].at("from_compile_cache").get<int>(), 0);
  }

  const CliResult report = RunTuner("report app_histogram --format md -o - --db " + Db());
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("#### Loss with the winners of other sizes"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("#### Dispatch table"), std::string::npos) << report.out;

  const CliResult relaunched = App("--sizes 1048576x256,65536x256,4194304x4096 --skew 0.5", false);
  ASSERT_EQ(relaunched.exit_code, 0) << relaunched.out << relaunched.err;
  // Per size: "configuration: tuned (...)", its parameters, "histogram of N values into B bins ...: correct".
  std::size_t at = 0;
  for (const char* size : {"1048576x256", "65536x256", "4194304x4096"}) {
    at = relaunched.out.find("configuration: ", at);
    ASSERT_NE(at, std::string::npos) << relaunched.out;
    const std::string block = relaunched.out.substr(at, relaunched.out.find("histogram of", at) - at);
    EXPECT_NE(block.find("configuration: tuned"), std::string::npos) << block;
    EXPECT_NE(block.find("dispatch table entry"), std::string::npos) << block;
    const nlohmann::json& run = by_size[size];
    double used_ms = 0;
    for (const auto& c : run.at("candidates")) {
      bool same = c.at("status") == "ok";
      for (const auto& [name, value] : c.at("params").items()) {
        const std::string param = " " + name + "=" + std::to_string(value.get<long long>());
        same = same && (block.find(param + " ") != std::string::npos || block.find(param + "\n") != std::string::npos);
      }
      if (same) used_ms = c.at("time_ms").get<double>();
    }
    EXPECT_GT(used_ms, 0) << size << ": the configuration used is no ok candidate of the sweep\n" << block;
    EXPECT_LE(used_ms, run["best"].at("time_ms").get<double>() * 1.05) << size << "\n" << block;
    at = relaunched.out.find("histogram of", at);
    EXPECT_EQ(relaunched.out.compare(relaunched.out.find(": ", at) + 2, 7, "correct"), 0) << relaunched.out;
  }
}

// The captured output is the check: a kernel that miscounts is wrong_result and never best.
TEST_F(CaptureGpu, TheCapturedOutputCatchesAWrongKernel) {
  TUNER_GPU_TEST(1);
  ASSERT_EQ(App("--n 65536 --bins 64 --skew 0.5", true).exit_code, 0);
  const fs::path source = dir_.File("capture-app_histogram/histogram.cu");
  std::string text = db::testing::ReadBytes(source.string());
  const std::string aggregated = "atomicAdd(&counters[value], (unsigned int)__popc(group))";
  ASSERT_NE(text.find(aggregated), std::string::npos) << "the histogram source changed; update this mutation";
  text.replace(text.find(aggregated), aggregated.size(), "atomicAdd(&counters[value], 1u)");  // a group counts as one
  db::testing::WriteBytes(source.string(), text);
  const CliResult tuned = Tune(dir_.File("capture-app_histogram"));
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto doc = nlohmann::json::parse(tuned.out);
  for (const auto& c : doc.at("candidates")) {
    const long long variant = c.at("params").at("VARIANT");
    if (variant >= 2)
      EXPECT_EQ(c.at("status"), "wrong_result") << c.dump();
    else
      EXPECT_NE(c.at("status"), "wrong_result") << c.dump();
  }
  EXPECT_LT(doc.at("best").at("params").at("VARIANT").get<long long>(), 2);
}

// Data decides: the best configuration for uniform data is not the best for skewed data, and
// each capture's tuning picks the one that is fastest on its own data.
TEST_F(CaptureGpu, UniformAndSkewedDataHaveDifferentWinners) {
  TUNER_GPU_TEST(1);
  std::map<std::string, nlohmann::json> runs;
  for (const char* skew : {"0", "0.9"}) {
    const std::string capture_dir = dir_.File(std::string("skew-") + skew);
    fs::create_directories(capture_dir);
    // 65536 bins do not fit in shared memory: global atomics against warp-aggregated ones, which
    // skew decides. (At 256 bins the shared-memory histogram wins on both: bench/benchmarks.md.)
    ASSERT_EQ(App("--n 16777216 --bins 65536 --skew " + std::string(skew), true, capture_dir).exit_code, 0);
    const CliResult tuned = Tune(capture_dir + "/capture-app_histogram");
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    runs[skew] = nlohmann::json::parse(tuned.out);
  }
  auto time_of = [](const nlohmann::json& run, const nlohmann::json& params) {
    for (const auto& c : run.at("candidates"))
      if (c.at("params") == params && c.at("status") == "ok") return c.at("time_ms").get<double>();
    return 1e30;
  };
  const nlohmann::json uniform_best = runs["0"]["best"]["params"], skewed_best = runs["0.9"]["best"]["params"];
  EXPECT_NE(uniform_best, skewed_best);
  // The skewed winner on uniform data (or the uniform winner on skewed data) loses at least 5%.
  const double uniform_loss = time_of(runs["0"], skewed_best) / runs["0"]["best"]["time_ms"].get<double>();
  const double skewed_loss = time_of(runs["0.9"], uniform_best) / runs["0.9"]["best"]["time_ms"].get<double>();
  EXPECT_GT(std::max(uniform_loss, skewed_loss), 1.05)
      << "uniform best " << ParamsText(uniform_best) << ", skewed best " << ParamsText(skewed_best);
}

// An output read and written (init = "file:...") starts from the file's contents at every launch:
// otherwise every candidate after the first would add to what the ones before left.
TEST_F(CaptureGpu, AnInOutBufferFromAFileIsRestoredBeforeEveryLaunch) {
  TUNER_GPU_TEST(1);
  const std::string folder = dir_.File("accumulate");
  fs::create_directories(folder);
  std::vector<float> start(4096), in(4096), sum(4096);
  for (std::size_t i = 0; i < start.size(); ++i) {
    start[i] = static_cast<float>(i % 17);
    in[i] = static_cast<float>(i % 5);
    sum[i] = start[i] + in[i];
  }
  npy::WriteFile(folder + "/start.npy", "<f4", start.data(), start.size());
  npy::WriteFile(folder + "/in.npy", "<f4", in.data(), in.size());
  npy::WriteFile(folder + "/sum.npy", "<f4", sum.data(), sum.size());
  db::testing::WriteBytes(
      folder + "/accumulate.cu",
      "extern \"C\" __global__ void accumulate(float* out, const float* in) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < 4096) out[i] += in[i];\n}\n");
  db::testing::WriteBytes(folder + "/accumulate.toml", R"toml(name = "accumulate"
kernel = "accumulate"
[[param]]
name = "BLOCK"
values = [64, 128, 256, 512]
[launch]
grid = ["cdiv(4096, BLOCK)"]
block = ["BLOCK"]
[[arg]]
name = "out"
type = "float"
length = "4096"
output = true
init = "file:start.npy"
[[arg]]
name = "in"
type = "float"
length = "4096"
init = "file:in.npy"
[check]
expected = { out = "sum.npy" }
atol = 0
rtol = 0
[work]
bytes = "12 * 4096"
)toml");
  const CliResult tuned = RunTuner("tune accumulate --templates " + folder + " --json --db " + Db(),
                                   "XDG_CACHE_HOME=" + dir_.File("cache"));
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto doc = nlohmann::json::parse(tuned.out);
  ASSERT_EQ(doc.at("candidates").size(), 4u);
  for (const auto& c : doc.at("candidates")) EXPECT_EQ(c.at("status"), "ok") << c.dump();
}

TEST(CaptureCost, AnUncapturedLaunchCostsAtMostOneMicrosecondMore) {
  TUNER_GPU_TEST(1);
  for (const char* env : {"", "TUNER_CAPTURE=another_kernel "}) {
    const CliResult r = RunCommand(std::string(env) + CAPTURE_BENCHMARK + " --batches 200");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    std::printf("%s", r.out.c_str());
  }
}

}  // namespace
}  // namespace tuner
