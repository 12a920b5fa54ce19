// The options of `tuner tune`, read as the command reads them: once, into typed fields, each bad value
// or pair of options a UsageError naming it, before any file, GPU or database is touched.
#include "app/tune_options.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "base/errors.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

// `tuner tune small ARGS...` read into its options.
TuneOptions Read(std::initializer_list<const char*> args) {
  po::options_description options("Options");
  po::positional_options_description positional;
  AddTuneOptions(options, positional);
  std::vector<std::string> words = {"tune", "small"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  po::variables_map vm;
  EXPECT_TRUE(ParseCommandLine(static_cast<int>(argv.size()), argv.data(), {"tune", "tuner tune", "", ""}, options,
                               positional, &vm));
  return ReadTuneOptions(vm, static_cast<int>(argv.size()), argv.data());
}

// The message of the UsageError reading `args` throws, "" when it throws none.
std::string Refusal(std::initializer_list<const char*> args) {
  try {
    Read(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(TuneOptions, LeftOutTheyReadAsTheirDefaults) {
  const TuneOptions o = Read({"--db", "t.db"});
  EXPECT_EQ(o.kernel, "small");
  EXPECT_EQ(o.db_path, "t.db");
  EXPECT_FALSE(o.json);
  EXPECT_EQ(o.size_text, "");
  EXPECT_FALSE(o.sizes);
  EXPECT_EQ(o.gpu, 0);
  EXPECT_FALSE(o.gpus);
  EXPECT_EQ(o.sweep.strategy.name, "auto");  // chosen by the sweep from its estimated cost
  EXPECT_EQ(o.sweep.strategy_reason, "");
  EXPECT_EQ(o.sweep.strategy.seed, 1u);
  EXPECT_DOUBLE_EQ(o.sweep.timeout_floor_s, 10);
  EXPECT_TRUE(o.sweep.tighten_deadlines);
  EXPECT_EQ(o.sweep.counters, CounterMode::kWinner);
  EXPECT_EQ(o.sweep.objective, db::Objective::kTime);
  EXPECT_EQ(o.sweep.node_shard.count, 1u);
  EXPECT_EQ(o.sweep.command_line, "tuner tune small --db t.db");
}

TEST(TuneOptions, EachIsReadIntoItsTypedField) {
  const TuneOptions o =
      Read({"--size",      "64x32", "--gpu",           "2",      "--strategy",       "random", "--budget",    "5",
            "--seed",      "9",     "--timeout-floor", "2.5",    "--budget-seconds", "60",     "--shard",     "2/3",
            "--counters",  "off",   "--objective",     "energy", "--force",          "--json", "--templates", "a",
            "--templates", "b"});
  EXPECT_EQ(o.size_text, "64x32");
  EXPECT_EQ(o.gpu, 2);
  EXPECT_EQ(o.sweep.strategy.name, "random");
  EXPECT_EQ(o.sweep.strategy.max_evaluations, 5u);
  EXPECT_EQ(o.sweep.strategy.seed, 9u);
  EXPECT_DOUBLE_EQ(o.sweep.timeout_floor_s, 2.5);
  EXPECT_FALSE(o.sweep.tighten_deadlines);  // a floor the user sets is kept
  EXPECT_DOUBLE_EQ(o.sweep.budget_seconds, 60);
  EXPECT_EQ(o.sweep.node_shard.Text(), "2/3");
  EXPECT_EQ(o.sweep.counters, CounterMode::kOff);
  EXPECT_EQ(o.sweep.objective, db::Objective::kEnergy);
  EXPECT_TRUE(o.sweep.force);
  EXPECT_TRUE(o.json);
  EXPECT_EQ(o.template_folders, (std::vector<std::string>{"a", "b"}));
}

TEST(TuneOptions, TimingIsReadAsItsModeAndLeftOutAsNone) {
  EXPECT_FALSE(Read({}).timing.has_value()) << "left out: the template's mode";
  EXPECT_EQ(Read({"--timing", "isolated"}).timing, TimingMode::kIsolated);
  EXPECT_EQ(Read({"--timing", "back_to_back"}).timing, TimingMode::kBackToBack);
  EXPECT_EQ(Read({"--timing=graph"}).timing, TimingMode::kGraph);
}

TEST(TuneOptions, LaunchesPerSampleAreAWholeNumberFromOneTo65536) {
  EXPECT_EQ(Read({}).sweep.batch_launches, 0) << "left out: about 1 ms of launches";
  EXPECT_EQ(Read({"--launches-per-sample", "64"}).sweep.batch_launches, 64);
  EXPECT_EQ(Read({"--launches-per-sample", "65536"}).sweep.batch_launches, 65536);
  for (const char* bad : {"0", "-3", "65537", "1.5", "many"})
    EXPECT_NE(Refusal({"--launches-per-sample", bad}).find("--launches-per-sample '" + std::string(bad) + "'"),
              std::string::npos)
        << bad;
}

TEST(TuneOptions, AnUnknownTimingModeIsOneClearUsageError) {
  EXPECT_EQ(Refusal({"--timing", "cudagraph"}), "--timing 'cudagraph' is not one of isolated, back_to_back or graph");
  EXPECT_EQ(Refusal({"--timing", "Graph"}), "--timing 'Graph' is not one of isolated, back_to_back or graph");
}

TEST(TuneOptions, GpusAreReadOnceAllAsAnEmptyList) {
  EXPECT_EQ(*Read({"--gpus", "all"}).gpus, std::vector<int>{});
  EXPECT_EQ(*Read({"--gpus", "1,0,3"}).gpus, (std::vector<int>{1, 0, 3}));
}

TEST(TuneOptions, MalformedGpuListsAreUsageErrorsBeforeAnyGpuIsLookedFor) {
  for (const char* bad : {"", "0,", "x", "0,0", "-1", "1;2", "99999999999"})
    EXPECT_THROW(ParseGpuList(bad), UsageError) << bad;
  EXPECT_EQ(Refusal({"--gpus", "0,0"}), "--gpus '0,0': GPU 0 is listed twice");
}

TEST(TuneOptions, OptionsThatDoNotGoTogetherAreRefused) {
  EXPECT_NE(Refusal({"--gpu", "0", "--gpus", "all"}), "");
  EXPECT_NE(Refusal({"--size", "8x8", "--sizes", "8x8,16x16"}), "");
  EXPECT_EQ(Refusal({"--sizes", "8x8,16x16", "--gpus", "all"}),
            "--sizes and --gpus: tune several sizes on one GPU (--gpu N), or one size at a time on several GPUs");
  EXPECT_EQ(Refusal({"--gpus", "all", "--strategy", "annealing"}),
            "--gpus shares the candidates of brute_force and random sweeps; tune with --strategy annealing one GPU at "
            "a time (--gpu N)");
  EXPECT_EQ(Refusal({"--shard", "1/2", "--strategy", "genetic"}),
            "--shard shares the candidates of brute_force and random sweeps; --strategy genetic chooses each "
            "candidate from the results before it, so it runs on one node");
  EXPECT_NE(Refusal({"--strategy", "bogus"}).find("--strategy 'bogus'"), std::string::npos);
}

TEST(TuneOptions, AutoIsBruteForceWhereGpusOrShardsShareTheCandidatesAndSaysWhy) {
  const auto expect_brute_force = [](const TuneOptions& o, const std::string& option) {
    EXPECT_EQ(o.sweep.strategy.name, "brute_force") << option;
    EXPECT_EQ(o.sweep.strategy_reason,
              "brute force: " + option + " shares out the candidates of a planned strategy only");
  };
  expect_brute_force(Read({"--gpus", "all"}), "--gpus");
  expect_brute_force(Read({"--shard", "1/2"}), "--shard");
  expect_brute_force(Read({"--gpus", "0,1", "--strategy", "auto"}), "--gpus");
  const TuneOptions named = Read({"--gpus", "all", "--strategy", "random"});  // a named strategy is kept
  EXPECT_EQ(named.sweep.strategy.name, "random");
  EXPECT_EQ(named.sweep.strategy_reason, "");
  EXPECT_EQ(Read({"--strategy", "auto"}).sweep.strategy.name, "auto");
  EXPECT_EQ(
      Refusal({"--strategy", "Auto"}),
      "--strategy 'Auto': unknown search strategy (known: auto, brute_force, random, annealing, genetic, bayesian)");
}

TEST(TuneOptions, RevalidateTakesOneGpuAndNothingThatChoosesSizesOrCandidates) {
  EXPECT_TRUE(Read({"--revalidate"}).revalidate);
  EXPECT_EQ(Read({"--revalidate", "--gpu", "1"}).gpu, 1);
  EXPECT_FALSE(Read({}).revalidate);
  for (const char* option : {"--size", "--sizes", "--gpus", "--shard", "--budget", "--strategy"}) {
    const char* value = std::string(option) == "--strategy" ? "random"
                        : std::string(option) == "--shard"  ? "1/2"
                        : std::string(option) == "--gpus"   ? "all"
                        : std::string(option) == "--budget" ? "5"
                                                            : "8x8";
    const std::string refusal = Refusal({"--revalidate", option, value});
    EXPECT_EQ(refusal.rfind(std::string("--revalidate and ") + option + ": ", 0), 0u) << option << ": " << refusal;
  }
  EXPECT_NE(Refusal({"--revalidate", "--force"}), "");
}

TEST(TuneOptions, SizesAreParsedAtTheTemplate) {
  db::testing::TempDir dir;
  const TemplateSpec spec =
      LoadTemplateFile(testing::WriteTemplateFiles(dir.File("t"), "small", testing::kSmallDescription));
  EXPECT_EQ(SizesToTune(spec, Read({})).size(), 1u);
  const std::vector<ProblemSize> sizes = SizesToTune(spec, Read({"--sizes", "64,128"}));
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[1].Key(), "128");
}

}  // namespace
}  // namespace tuner
