// End-to-end sweeps on a real GPU through the command line (skipped without one): the shipped
// transpose on a small size, resume, and candidates that fault, hang, do not compile, are wrong or
// write their input.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "cli_runner.h"
#include "cuda/device.h"
#include "db/query/sqlite.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "sweep/strategy_choice.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::Replaced;
using testing::RunTuner;

// The four parts of a sweep's time (docs/concepts/timing.md, "Where the time goes") add up to its wall time.
void ExpectTimeAddsUp(const nlohmann::json& time) {
  const double parts = time.at("compile_s").get<double>() + time.at("gpu_s").get<double>() +
                       time.at("waiting_s").get<double>() + time.at("overhead_s").get<double>();
  EXPECT_NEAR(parts, time.at("wall_s").get<double>(), 1e-9) << time.dump();
  for (const char* part : {"compile_s", "gpu_s", "waiting_s", "overhead_s"})
    EXPECT_GE(time[part].get<double>(), 0) << part;
}

TEST(SweepGpu, TransposeEndToEndStoresAVerifiedBest) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const std::string db = " --db " + dir.File("t.db");
  const auto first = RunTuner("tune transpose --size 1024x2048 --json" + db, "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto doc = nlohmann::json::parse(first.out);
  EXPECT_EQ(doc.at("measured_now"), 30);
  EXPECT_GT(doc.at("copy_gbps").get<double>(), 100.0);
  ASSERT_FALSE(doc.at("best").is_null());
  EXPECT_EQ(doc["best"].at("status"), "ok");
  for (const auto& c : doc.at("candidates")) {
    EXPECT_EQ(c.at("status"), "ok") << c.dump();
    // The statistics of one set of samples, also for the leaders timed again in turns.
    EXPECT_LE(c.at("time_ms_min").get<double>(), c.at("time_ms").get<double>()) << c.dump();
    EXPECT_LE(c.at("time_ms").get<double>(), c.at("time_ms_max").get<double>()) << c.dump();
  }

  // The leaders' confirmation is visible: three leaders timed in turns, and a verdict on the first two.
  ASSERT_EQ(doc.at("leaders").size(), 3u) << first.out;
  EXPECT_EQ(doc["leaders"][0].at("params"), doc["best"]["params"]);
  for (const auto& leader : doc["leaders"]) {
    EXPECT_TRUE(leader.at("confirmed").get<bool>()) << leader.dump();
    EXPECT_EQ(leader.at("samples"), 10) << leader.dump();
  }
  const std::string separation = doc.at("winner_vs_runner_up").at("separation");
  EXPECT_TRUE(separation == "distinguishable" || separation == "within_noise") << separation;
  ExpectTimeAddsUp(doc.at("time"));
  EXPECT_GT(doc["time"]["gpu_s"].get<double>(), 0);              // the worker's setup, the candidates and the leaders
  EXPECT_GT(doc["time"]["compile_threads_s"].get<double>(), 0);  // a fresh cache: every candidate compiled

  const auto again = RunTuner("tune transpose --size 1024x2048 --json" + db, "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto resumed = nlohmann::json::parse(again.out);
  EXPECT_EQ(resumed.at("measured_now"), 0);  // resumed: nothing missing
  ExpectTimeAddsUp(resumed.at("time"));
  EXPECT_EQ(resumed["time"]["gpu_s"], 0);  // no worker was started
  EXPECT_EQ(resumed["time"]["bound_by"], "overhead");

  const auto query = RunTuner("query transpose --size 1024x2048 --json" + db);
  ASSERT_EQ(query.exit_code, 0) << query.err;
  bool found = false;  // the best sweep's parameters appear in the query's answer
  std::function<void(const nlohmann::json&)> visit = [&](const nlohmann::json& j) {
    if (j.is_object() && j.contains("params") && j["params"] == doc["best"]["params"]) found = true;
    if (j.is_structured())
      for (const auto& item : j) visit(item);
  };
  visit(nlohmann::json::parse(query.out));
  EXPECT_TRUE(found) << query.out;
}

TEST(SweepGpu, AnOptimiserStaysWithinItsBudget) {
  TUNER_GPU_TEST(1);
  for (const std::string strategy : {"annealing", "bayesian"}) {
    TempDir dir;
    const auto r = RunTuner("tune transpose --size 1024x1024 --strategy " + strategy +
                                " --budget 12 --seed 3 --json --db " + dir.File("t.db"),
                            "XDG_CACHE_HOME=" + dir.File("cache"));
    ASSERT_EQ(r.exit_code, 0) << strategy << ": " << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_LE(doc.at("measured_now").get<int>(), 12) << strategy;  // bayesian: 10 random, then 2 from its model
    EXPECT_GE(doc.at("measured_now").get<int>(), 1) << strategy;
    EXPECT_EQ(doc.at("best").at("status"), "ok") << strategy;
    ExpectTimeAddsUp(doc.at("time"));
  }
}

// --strategy auto, the default: a small space is measured whole, said on stderr and in --json.
// `tuner tune ARGS --json` on a fresh database and a cold cubin cache in `dir`: its document and stderr.
struct TuneRun {
  nlohmann::json doc;
  std::string err;
};
TuneRun TuneCold(const std::string& args, const TempDir& dir) {
  const auto r = RunTuner("tune " + args + " --json --db " + dir.File("t.db"), "XDG_CACHE_HOME=" + dir.File("cache"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return {r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object(), r.err};
}

TEST(SweepGpu, AutoMeasuresASmallSpaceWhole) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const auto [doc, err] = TuneCold("transpose --size 1024x2048", dir);
  ASSERT_TRUE(doc.contains("strategy")) << err;
  EXPECT_EQ(doc.at("strategy").at("name"), "brute_force") << err;
  EXPECT_LT(doc.at("strategy").at("brute_force_estimate_s").get<double>(), 120);
  EXPECT_EQ(doc.at("measured_now"), 30);
  EXPECT_NE(err.find("30 candidates: brute force about"), std::string::npos) << err;
  EXPECT_NE(err.find("measuring all"), std::string::npos) << err;
}

// A large space of slow compiles, cold cache: searched, compiling what it measures and a short
// look-ahead, and stopped by the expected gain (or its time limit) long before the whole space.
TEST(SweepGpu, AutoSearchesALargeSpaceWithACompileCostOfMinutes) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const auto [doc, err] = TuneCold("gemm_large --counters off --budget-seconds 300", dir);
  ASSERT_TRUE(doc.contains("strategy")) << err;
  const auto& strategy = doc.at("strategy");
  EXPECT_EQ(strategy.at("name"), "bayesian") << err;
  EXPECT_GT(strategy.at("brute_force_estimate_s").get<double>(), 120);
  EXPECT_DOUBLE_EQ(strategy.at("min_expected_gain").get<double>(), 0.005);
  EXPECT_EQ(strategy.at("patience"), kAutoPatience);
  EXPECT_NE(err.find("searching instead (stops when the expected gain is below 0.5%); --strategy brute_force "
                     "measures all"),
            std::string::npos)
      << err;
  EXPECT_LT(doc.at("measured_now").get<int>(), doc.at("candidates_total").get<int>() / 4);
  EXPECT_EQ(doc.at("best").at("status"), "ok");
  // Compiled: the measured ones and at most the look-ahead (16) and the estimate's sample (16) more.
  std::size_t cubins = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.File("cache")))
    cubins += entry.is_regular_file() && entry.path().extension() == ".cubin";
  EXPECT_LE(cubins, doc.at("measured_now").get<std::size_t>() + 32 + 1) << "the reference kernel is one more";
}

// Under --gpus, auto is brute force, and says why.
TEST(SweepGpu, AutoIsBruteForceUnderGpus) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const auto [doc, err] = TuneCold("transpose --size 1024x1024 --gpus 0", dir);
  ASSERT_TRUE(doc.contains("sweeps")) << err;
  EXPECT_EQ(doc.at("sweeps").at(0).at("strategy").at("name"), "brute_force");
  EXPECT_NE(err.find("brute force: --gpus shares out the candidates of a planned strategy only"), std::string::npos)
      << err;
}

// Several GPUs (skipped with fewer than two): one sweep each; GPUs of one model share the
// candidates without overlap, then each card times the model's leaders; every model gets a best.
TEST(SweepGpu, SeveralGpusShareTheCandidatesOfOneModel) {
  TUNER_GPU_TEST(2);
  const GpuDiscovery found = DiscoverGpus();
  TempDir dir;
  const auto r = RunTuner("tune transpose --size 1024x1024 --gpus all --json --db " + dir.File("t.db"),
                          "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.at("sweeps").size(), found.gpus.size());
  std::map<std::string, std::set<std::string>> measured_per_model;
  std::map<std::string, int> count_per_model, cards_per_model;
  for (const auto& sweep : doc["sweeps"]) {
    const std::string model = sweep["gpu"]["name"];
    ++cards_per_model[model];
    for (const auto& c : sweep["candidates"]) {
      measured_per_model[model].insert(c["params"].dump());
      ++count_per_model[model];
    }
  }
  for (const auto& [model, best] : doc.at("best_per_model").items()) EXPECT_EQ(best.at("status"), "ok") << model;
  // Every card of a shared model timed the same leaders, the model's, in turns.
  std::map<std::string, std::set<std::set<std::string>>> leaders_per_model;
  for (const auto& sweep : doc["sweeps"]) {
    std::set<std::string> confirmed;
    for (const auto& c : sweep["candidates"])
      if (c["reason"].get<std::string>().rfind("confirmed", 0) == 0) confirmed.insert(c["params"].dump());
    EXPECT_GE(confirmed.size(), 2u) << sweep["gpu"].dump();
    leaders_per_model[sweep["gpu"]["name"]].insert(confirmed);
  }
  for (const auto& [model, sets] : leaders_per_model) EXPECT_EQ(sets.size(), 1u) << model;
  for (const auto& [model, distinct] : measured_per_model) {
    EXPECT_EQ(distinct.size(), 30u) << model;  // every candidate of the model measured once, but
    // for the model's leaders (the fastest three and those close to them), which every card times
    const std::size_t leaders = leaders_per_model[model].begin()->size();
    EXPECT_LE(count_per_model[model], 30 + static_cast<int>(leaders) * (cards_per_model[model] - 1))
        << model << ": " << leaders << " leaders";
  }

  // Again: every card resumes from what the cards of its model measured between them.
  const auto again = RunTuner("tune transpose --size 1024x1024 --gpus all --json --db " + dir.File("t.db"),
                              "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  for (const auto& sweep : nlohmann::json::parse(again.out)["sweeps"]) {
    EXPECT_EQ(sweep["measured_now"], 0) << sweep["gpu"].dump();
    EXPECT_EQ(sweep["already_stored"], 30) << sweep["gpu"].dump();
  }
}

const char* kFaultySource = R"toml(
extern "C" __global__ void faulty(float* out, const float* in, int* flag, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
#if VARIANT == 1
  if (i == 0) *(volatile float*)(out - (1ll << 40)) = 1.0f;  // far outside any allocation
#elif VARIANT == 2
  while (*(volatile int*)flag == 0) {}                      // never set: spins forever
#elif VARIANT == 3
  this does not compile;
#endif
  if (i < n) out[i] = in[i] * 2.0f + (VARIANT == 4 && i == 7 ? 1.0f : 0.0f);
}
)toml";

const char* kFaultyDescription = R"toml(
name = "faulty"
kernel = "faulty"
[[size]]
name = "N"
default = 4096
[[param]]
name = "VARIANT"
values = [0, 1, 2, 3, 4]
labels = ["correct", "out_of_bounds", "spins", "no_compile", "wrong"]
[launch]
grid = ["cdiv(N, 256)"]
block = [256]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[[arg]]
name = "in"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "flag"
type = "int"
length = 1
init = "zero"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
reference = "own_configuration"
params = { VARIANT = 0 }
[work]
bytes = "8 * N"
)toml";

TEST(SweepGpu, FailingCandidatesAreRecordedAndTheSweepGoesOn) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  std::ofstream(dir.File("faulty.toml")) << kFaultyDescription;
  std::ofstream(dir.File("faulty.cu")) << kFaultySource;
  const std::string command =
      "tune faulty --json --timeout-floor 3 --templates " + dir.File("") + " --db " + dir.File("t.db");
  const auto r = RunTuner(command, "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  std::map<int, std::string> status;
  std::map<int, int> kills;
  std::map<int, std::string> reason;
  for (const auto& c : doc.at("candidates")) {
    status[c["params"]["VARIANT"]] = c["status"];
    kills[c["params"]["VARIANT"]] = c["worker_kills"];
    reason[c["params"]["VARIANT"]] = c["reason"];
  }
  EXPECT_EQ(status[0], "ok");
  EXPECT_EQ(status[1], "fault");
  EXPECT_EQ(status[2], "timeout");
  EXPECT_EQ(status[3], "compile_error");
  EXPECT_TRUE(std::regex_search(reason[3], std::regex(R"(^compile: faulty\.cu\([0-9]+\): error: )"))) << reason[3];
  EXPECT_EQ(status[4], "wrong_result");
  EXPECT_EQ(doc["best"]["params"]["VARIANT"], 0);
  EXPECT_EQ(kills[0], 0);
  EXPECT_EQ(kills[1], 2);  // tried once more with a fresh worker, then given up
  EXPECT_EQ(kills[2], 2);
  ExpectTimeAddsUp(doc.at("time"));
  EXPECT_GE(doc["time"]["waiting_s"].get<double>(), 6.0);  // VARIANT 2 hung twice until its 3 s deadline

  // Resuming measures nothing: the two that killed their worker twice are not tried a third time.
  const auto again = RunTuner(command, "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["measured_now"], 0);
}

// A candidate that hangs after a correct one on the same worker costs one short deadline
// (the best time is microseconds: 2 s), not its 10 s floor twice.
TEST(SweepGpu, AHangAfterACorrectCandidateIsCutSoonAndNotTriedAgain) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  std::string description = Replaced(kFaultyDescription, "values = [0, 1, 2, 3, 4]", "values = [0, 2]");
  description = Replaced(description, R"(labels = ["correct", "out_of_bounds", "spins", "no_compile", "wrong"])",
                         R"(labels = ["correct", "spins"])");
  std::ofstream(dir.File("faulty.toml")) << description;
  std::ofstream(dir.File("faulty.cu")) << kFaultySource;
  const auto start = std::chrono::steady_clock::now();
  const auto r = RunTuner("tune faulty --json --templates " + dir.File("") + " --db " + dir.File("t.db"),
                          "XDG_CACHE_HOME=" + dir.File("cache"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  std::map<int, nlohmann::json> by_variant;
  for (const auto& c : doc.at("candidates")) by_variant[c["params"]["VARIANT"]] = c;
  ASSERT_EQ(by_variant.size(), 2u) << doc.dump();
  EXPECT_EQ(by_variant[0]["status"], "ok");
  EXPECT_EQ(by_variant[2]["status"], "timeout");
  EXPECT_EQ(by_variant[2]["worker_kills"], 2) << "final at once";
  EXPECT_NE(by_variant[2]["reason"].get<std::string>().find("the hang is the candidate's"), std::string::npos)
      << by_variant[2].dump();
  std::cout << "sweep with one hang: " << seconds << " s, waiting " << doc["time"]["waiting_s"] << " s\n";
  EXPECT_LT(seconds, 15);
  EXPECT_LT(doc["time"]["waiting_s"].get<double>(), 8.0);
}

// VARIANT 1 and 2 write their input after computing a correct output; 0 and 3 are correct.
const char* kScribblerSource = R"cuda(
extern "C" __global__ void scribbler(float* out, float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = in[i] * 2.0f;
#if VARIANT == 1
  in[i] = -in[i];                  // every element
#elif VARIANT == 2
  if (i == n - 1) in[i] += 1.0f;   // one element
#endif
}
)cuda";

const char* kScribblerDescription = R"toml(
name = "scribbler"
kernel = "scribbler"
[[size]]
name = "N"
default = 100000
[[param]]
name = "VARIANT"
values = [0, 1, 2, 3]
labels = ["correct", "negates_input", "bumps_one_input", "correct_after"]
[launch]
grid = ["cdiv(N, 256)"]
block = [256]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[[arg]]
name = "in"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
reference = "own_configuration"
params = { VARIANT = 0 }
atol = 0.0
rtol = 0.0
[work]
bytes = "8 * N"
)toml";

// A candidate that writes its input is wrong even though its own output is right, and the input is
// filled again, so the correct candidates measured after it still pass.
// `tune NAME --json` of the template NAME.toml and NAME.cu written into a fresh folder; its
// document, and its candidates by VARIANT.
nlohmann::json TuneByVariant(const std::string& name, const std::string& description, const std::string& source,
                             std::map<int, nlohmann::json>* by_variant) {
  TempDir dir;
  std::ofstream(dir.File(name + ".toml")) << description;
  std::ofstream(dir.File(name + ".cu")) << source;
  const auto r = RunTuner("tune " + name + " --json --templates " + dir.File("") + " --db " + dir.File("t.db"),
                          "XDG_CACHE_HOME=" + dir.File("cache"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& c : doc.at("candidates")) (*by_variant)[c["params"]["VARIANT"]] = c;
  return doc;
}

TEST(SweepGpu, ACandidateThatWritesItsInputIsWrongAndLaterOnesStillPass) {
  TUNER_GPU_TEST(1);
  std::map<int, nlohmann::json> by_variant;
  const auto doc = TuneByVariant("scribbler", kScribblerDescription, kScribblerSource, &by_variant);
  ASSERT_EQ(by_variant.size(), 4u) << doc.dump();
  for (int variant : {1, 2}) {
    EXPECT_EQ(by_variant[variant]["status"], "wrong_result") << by_variant[variant].dump();
    const std::string reason = by_variant[variant]["reason"];
    EXPECT_EQ(reason.rfind("overwrote input 'in' (checksum 0x", 0), 0u) << reason;
    EXPECT_NE(reason.find("restored for the next candidates"), std::string::npos) << reason;
  }
  EXPECT_EQ(by_variant[0]["status"], "ok") << by_variant[0].dump();
  EXPECT_EQ(by_variant[3]["status"], "ok") << by_variant[3].dump();
  EXPECT_TRUE(doc["best"]["params"]["VARIANT"] == 0 || doc["best"]["params"]["VARIANT"] == 3) << doc["best"].dump();
}

// VARIANT 1 remembers, per element, that it ran: right at its first launch, one too much after.
const char* kStatefulSource = R"cuda(
__device__ float ran_before[100000];
extern "C" __global__ void stateful(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = in[i] * 2.0f;
#if VARIANT == 1
  out[i] += ran_before[i];
  ran_before[i] = 1.0f;
#endif
}
)cuda";

TEST(SweepGpu, AKernelRightOnlyAtItsFirstLaunchIsWrong) {
  TUNER_GPU_TEST(1);
  std::string description = kScribblerDescription;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"scribbler", "stateful"},
           {"scribbler", "stateful"},
           {"[0, 1, 2, 3]", "[0, 1]"},
           {R"(labels = ["correct", "negates_input", "bumps_one_input", "correct_after"])", ""}})
    description = Replaced(description, from, to);
  std::map<int, nlohmann::json> by_variant;
  const auto doc = TuneByVariant("stateful", description, kStatefulSource, &by_variant);
  ASSERT_EQ(by_variant.size(), 2u) << doc.dump();
  EXPECT_EQ(by_variant[0]["status"], "ok") << by_variant[0].dump();
  EXPECT_EQ(by_variant[1]["status"], "wrong_result") << by_variant[1].dump();
  EXPECT_EQ(by_variant[1].value("reason", "").rfind("right at the first launch, wrong after the timed ones: ", 0), 0u)
      << by_variant[1].dump();
}

// Whether candidate 1 of `tune faulty` has killed its worker twice (then candidate 2 spins), waiting
// at most 60 s.
bool WaitForTheSecondFault(const std::string& db) {
  for (int tries = 0; tries < 600; ++tries) {
    try {
      db::Store store = db::Store::Open(db, db::OpenMode::kReadOnly);
      for (const auto& row : store.ListMeasurements({}))
        if (row.measurement.params_json == R"({"VARIANT":1})" && row.measurement.worker_kills == 2) return true;
    } catch (const std::exception&) {
      // not created yet
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// Starts `tune faulty` with a 60 s deadline in the background and sends it `signal` once candidates
// 0 and 1 (faulting twice) are done and 2 spins; returns its wait status and how long it took to go.
int SignalWhileACandidateSpins(const TempDir& dir, int signal, std::chrono::steady_clock::duration* took) {
  std::ofstream(dir.File("faulty.toml")) << kFaultyDescription;
  std::ofstream(dir.File("faulty.cu")) << kFaultySource;
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("XDG_CACHE_HOME", dir.File("cache").c_str(), 1);
    execl(TUNER_EXECUTABLE, TUNER_EXECUTABLE, "tune", "faulty", "--json", "--timeout-floor", "60", "--templates",
          dir.File("").c_str(), "--db", dir.File("t.db").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  EXPECT_TRUE(WaitForTheSecondFault(dir.File("t.db")));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // candidate 2 is spinning by then
  kill(pid, signal);
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  waitpid(pid, &status, 0);
  *took = std::chrono::steady_clock::now() - start;
  return status;
}

// Whether a process other than this one runs with this test's cache folder in its environment.
bool SomeProcessUses(const std::string& cache_dir) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(getpid())) continue;
    std::ifstream environ(entry.path() / "environ", std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(environ)), std::istreambuf_iterator<char>());
    if (text.find("XDG_CACHE_HOME=" + cache_dir) != std::string::npos) return true;
  }
  return false;
}

// Ctrl-C while a candidate spins: the sweep stops at once, keeps what it stored, exits 130.
TEST(SweepGpu, InterruptStopsCleanly) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  std::chrono::steady_clock::duration took{};
  const int status = SignalWhileACandidateSpins(dir, SIGINT, &took);
  EXPECT_LT(took, std::chrono::seconds(5));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  db::Store store = db::Store::Open(dir.File("t.db"), db::OpenMode::kReadOnly);
  const auto rows = store.ListMeasurements({});
  EXPECT_GE(rows.size(), 2u);  // the correct and the faulting candidate were stored
  for (const auto& row : rows) EXPECT_NE(row.measurement.params_json, R"({"VARIANT":2})");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].sweep.status, "interrupted");
}

// SIGKILL loses at most the candidate in flight: its worker dies with it, and running the same
// command again measures exactly what is missing.
TEST(SweepGpu, AfterSigkillTheSameCommandMeasuresOnlyWhatIsMissing) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  std::chrono::steady_clock::duration took{};
  const int status = SignalWhileACandidateSpins(dir, SIGKILL, &took);
  ASSERT_TRUE(WIFSIGNALED(status));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(SomeProcessUses(dir.File("cache"))) << "a worker outlived the killed tuner";
  std::size_t stored = 0;
  {
    db::Store store = db::Store::Open(dir.File("t.db"), db::OpenMode::kReadOnly);
    stored = store.ListMeasurements({}).size();
  }
  EXPECT_GE(stored, 2u);
  const auto again =
      RunTuner("tune faulty --json --timeout-floor 3 --templates " + dir.File("") + " --db " + dir.File("t.db"),
               "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto doc = nlohmann::json::parse(again.out);
  EXPECT_EQ(doc["already_stored"].get<std::size_t>(), stored);
  EXPECT_EQ(doc["measured_now"].get<std::size_t>(), 5 - stored);
  EXPECT_EQ(doc["candidates"].size(), 5u);
}

// Two nodes' shares, the second stored as another card of the model whose three fastest confirmed
// leaders came out ten times faster (and the rest ten times slower), merged: the next run on this
// card measures nothing new but the model's leaders, the other card's three, and times them in
// turns here; the run after it measures nothing.
TEST(SweepGpu, AfterAMergeOfShardsTheNextRunTimesTheOtherCardsLeadersHere) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const std::string cache = "XDG_CACHE_HOME=" + dir.File("cache");
  std::size_t shares = 0;
  std::set<std::string> here;       // measured by the first shard, on this card
  std::set<std::string> elsewhere;  // the second shard's three fastest leaders
  for (const std::string k : {"1", "2"}) {
    const auto shard = RunTuner(
        "tune transpose --size 1024x1024 --json --shard " + k + "/2 --db " + dir.File("shard" + k + ".db"), cache);
    ASSERT_EQ(shard.exit_code, 0) << shard.err;
    const auto doc = nlohmann::json::parse(shard.out);
    EXPECT_EQ(doc.at("shard"), k + "/2");
    EXPECT_EQ(doc.at("measured_now"), doc.at("shard_candidates"));
    shares += doc.at("shard_candidates").get<std::size_t>();
    for (const auto& c : doc.at("candidates"))  // fastest first
      if (k == "1")
        here.insert(c.at("params").dump());
      else if (elsewhere.size() < 3 && c.at("reason").get<std::string>().rfind("confirmed", 0) == 0)
        elsewhere.insert(c.at("params").dump());
  }
  EXPECT_EQ(shares, 30u);
  {
    db::sql::Connection other(dir.File("shard2.db"), db::sql::Connection::Mode::kReadWrite);
    other.Execute("UPDATE gpus SET uuid = 'GPU-another-card-of-the-model'");
    other.Execute("UPDATE measurements SET time_ms_median = time_ms_median * 10 WHERE status = 'ok'");
    other.Execute(
        "UPDATE measurements SET time_ms_median = time_ms_median / 100 WHERE id IN "
        "(SELECT id FROM measurements WHERE reason LIKE 'confirmed%' ORDER BY time_ms_median LIMIT 3)");
    // The times changed by hand: a tie recorded at the old times no longer holds (the merge checks it).
    other.Execute("UPDATE measurements SET tie_ms = 0, tie_rank = 0");
  }
  for (const std::string k : {"1", "2"})
    ASSERT_EQ(RunTuner("db merge " + dir.File("shard" + k + ".db") + " --db " + dir.File("merged.db")).exit_code, 0);
  const auto next = RunTuner("tune transpose --size 1024x1024 --json --db " + dir.File("merged.db"), cache);
  ASSERT_EQ(next.exit_code, 0) << next.err;
  const auto doc = nlohmann::json::parse(next.out);
  EXPECT_EQ(doc.at("already_stored"), 30);
  ASSERT_EQ(elsewhere.size(), 3u);
  std::size_t confirmed_from_elsewhere = 0;
  for (const auto& c : doc.at("candidates"))
    confirmed_from_elsewhere +=
        elsewhere.count(c.at("params").dump()) && c.at("reason").get<std::string>().rfind("confirmed", 0) == 0;
  EXPECT_EQ(confirmed_from_elsewhere, 3u) << next.out;
  // Those three, and any of this card's own that then came out faster than one of them, timed again.
  EXPECT_GE(doc.at("measured_now").get<int>(), 3);
  EXPECT_LE(doc.at("measured_now").get<int>(), 9);
  const auto again = RunTuner("tune transpose --size 1024x1024 --json --db " + dir.File("merged.db"), cache);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out).at("measured_now"), 0);
}

// Ties and revalidation on the GPU: a fresh tune of the shipped transpose reports its leaders'
// tie (or none) consistently with what `query` serves, and revalidating it on the same toolchain
// and GPU right away finds every leader holding, re-tunes nothing and keeps serving the winner.
TEST(SweepGpu, ARevalidationRightAfterTuningHoldsEverything) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const std::string db = " --db " + dir.File("t.db");
  const std::string cache = "XDG_CACHE_HOME=" + dir.File("cache");
  const auto tuned = RunTuner("tune transpose --size 1024x2048 --json" + db, cache);
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto doc = nlohmann::json::parse(tuned.out);
  ASSERT_TRUE(doc.contains("tie")) << tuned.out;
  if (!doc["tie"].is_null()) {
    EXPECT_EQ(doc["tie"]["chosen"], doc["best"]["params"]);
    EXPECT_GE(doc["tie"]["members"].size(), 2u);
  }
  const auto query = RunTuner("query transpose --size 1024x2048 --json" + db);
  ASSERT_EQ(query.exit_code, 0) << query.err;
  const auto served = nlohmann::json::parse(query.out)["results"][0];
  EXPECT_EQ(served["params"], doc["best"]["params"]) << "query serves what tune chose";
  EXPECT_EQ(served["other_toolchain"], false);

  const auto again = RunTuner("tune transpose --revalidate --json" + db, cache);
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  const auto revalidated = nlohmann::json::parse(again.out);
  ASSERT_EQ(revalidated["sizes"].size(), 1u) << again.out;
  const auto& size = revalidated["sizes"][0];
  EXPECT_EQ(size["size"], "1024x2048");
  EXPECT_EQ(size["leaders"].size(), 3u);
  for (const auto& leader : size["leaders"]) EXPECT_EQ(leader["verdict"], "held") << leader.dump();
  EXPECT_FALSE(size["retuned"].get<bool>()) << size.dump();
  const auto after = nlohmann::json::parse(RunTuner("query transpose --size 1024x2048 --json" + db).out)["results"][0];
  EXPECT_EQ(after["params"], size["best_after"]);
  EXPECT_EQ(after["revalidation"].get<std::string>().rfind("held: ", 0), 0u) << after.dump();
}

}  // namespace
}  // namespace tuner
