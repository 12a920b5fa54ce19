#include "template/search_space.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <random>

#include "common/interrupt.h"
#include "db_test_util.h"
#include "limit_override.h"
#include "odometer_enumeration.h"
#include "template/template_library.h"
#include "template/template_values.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;

const TemplateSpec& Transpose() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library.Find("transpose");
}

TEST(SearchSpace, TransposeHasTheBaselineSpacePlusNaive) {
  const auto candidates = EnumerateCandidates(Transpose(), ParseProblemSize(Transpose(), ""));
  std::size_t tiled = 0;
  for (const ParamValues& c : candidates) tiled += c[0].second == 1;
  EXPECT_EQ(tiled, 20u);  // ROWS <= TILE, TILE*ROWS <= 1024, smem <= 48 KiB: 20
  EXPECT_EQ(candidates.size(), 30u);
  for (const ParamValues& c : candidates) {
    const auto vars = MakeVariables(ParseProblemSize(Transpose(), ""), c);
    EXPECT_LE(vars.at("ROWS"), vars.at("TILE"));
    EXPECT_LE(vars.at("TILE") * vars.at("ROWS"), 1024);
  }
}

TEST(SearchSpace, ParamsJsonKeepsTheDeclaredOrderAndRoundTrips) {
  const ParamValues params = {{"VARIANT", 1}, {"TILE", 64}, {"ROWS", 4}, {"PAD", 1}};
  EXPECT_EQ(ParamsJson(params), R"({"VARIANT":1,"TILE":64,"ROWS":4,"PAD":1})");
  EXPECT_EQ(ParamsFromJson(ParamsJson(params)), params);
}

TEST(SearchSpace, AStoredCandidatesIdentityIsItsParamsJsonWhateverItsSpacing) {
  const ParamValues params = {{"TILE", 64}, {"ROWS", 4}};
  EXPECT_EQ(CandidateIdentity(R"({ "TILE": 64,  "ROWS" : 4 })"), ParamsJson(params));
  EXPECT_EQ(CandidateIdentity(ParamsJson(params)), ParamsJson(params));
  EXPECT_NE(CandidateIdentity(R"({"ROWS":4,"TILE":64})"), ParamsJson(params));  // the order is part of it
}

TEST(SearchSpace, LaunchGeometryFromExpressions) {
  const ProblemSize size = ParseProblemSize(Transpose(), "1000x500");
  const LaunchGeometry g = EvaluateLaunch(Transpose().launch, MakeVariables(size, {{"TILE", 32}, {"ROWS", 8}}));
  EXPECT_EQ(g.grid, (std::array<long long, 3>{32, 16, 1}));
  EXPECT_EQ(g.block, (std::array<long long, 3>{32, 8, 1}));
  EXPECT_EQ(g.ThreadsPerBlock(), 256);
  EXPECT_EQ(g.Json(), R"({"block":[32,8,1],"grid":[32,16,1],"shared_bytes":0})");
}

// A template whose [check] compiles the reference with other values than the first ones, and
// whose constraint divides by a parameter that may be zero.
TemplateSpec LoadDividing(const TempDir& dir) {
  using testing::Replaced;
  std::string description = Replaced(testing::kSmallDescription, "name = \"small\"\nkernel = \"k\"\n",
                                     "name = \"dividing\"\nkernel = \"k\"\nconstraints = [\"N % STEP == 0\"]\n");
  description = Replaced(description, "[launch]",
                         "[[param]]\nname = \"BLOCK\"\nvalues = [128, 256, 512]\n"
                         "[[param]]\nname = \"STEP\"\nvalues = [1, 2, 0]\n[launch]");
  description = Replaced(description, "kernel = \"k_reference\"",
                         "reference = \"own_configuration\"\nparams = { BLOCK = 512, STEP = 2 }");
  return LoadTemplateFile(testing::WriteTemplateFiles(dir.File(""), "dividing", description));
}

TEST(SearchSpace, ReferenceParamsComeFromTheCheckTable) {
  TempDir dir;
  const ParamValues ref = ReferenceParams(LoadDividing(dir));
  EXPECT_EQ(ref, (ParamValues{{"BLOCK", 512}, {"STEP", 2}}));  // not the first values, 128 and 1
  const ParamValues transpose = ReferenceParams(Transpose());  // no params in its [check]: the first values
  EXPECT_EQ(transpose, (ParamValues{{"VARIANT", 0}, {"TILE", 16}, {"ROWS", 4}, {"PAD", 0}}));
}

TEST(SearchSpace, ACandidatesReferenceTakesItsOwnValuesOfWhatTheOutputDependsOn) {
  TempDir dir;
  TemplateSpec spec = LoadDividing(dir);
  const ParamValues candidate = {{"BLOCK", 128}, {"STEP", 4}};
  EXPECT_EQ(ReferenceParamsFor(spec, candidate), ReferenceParams(spec));  // the output depends on none
  EXPECT_EQ(ReferenceGroup(spec, candidate), "");
  spec.check.output_depends_on = {"STEP"};
  EXPECT_EQ(ReferenceParamsFor(spec, candidate), (ParamValues{{"BLOCK", 512}, {"STEP", 4}}));
  EXPECT_EQ(ReferenceGroup(spec, candidate), "STEP=4");
  EXPECT_EQ(ReferenceGroup(spec, {{"BLOCK", 512}, {"STEP", 4}}), "STEP=4");  // one group whatever BLOCK is
}

TEST(SearchSpace, AConstraintThatDividesByZeroNamesTheConstraintAndTheCandidate) {
  TempDir dir;
  const TemplateSpec spec = LoadDividing(dir);
  try {
    EnumerateCandidates(spec, DefaultSize(spec));
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("constraint 'N % STEP == 0'"), std::string::npos) << message;
    EXPECT_NE(message.find("BLOCK=128 STEP=0"), std::string::npos) << message;
    EXPECT_NE(message.find("N=1024"), std::string::npos) << message;
    EXPECT_NE(message.find("division by zero"), std::string::npos) << message;
  }
}

TEST(SearchSpace, AGuardedDivisionIsNoError) {
  TempDir dir;
  TemplateSpec spec = LoadDividing(dir);
  spec.constraints = {"STEP == 0 ? 0 : N % STEP == 0"};
  EXPECT_EQ(EnumerateCandidates(spec, ParseProblemSize(spec, "1024")).size(), 6u);
}

TEST(SearchSpace, AConstraintIsCheckedOnceItsParametersAreBoundAndNamesThem) {
  TempDir dir;
  TemplateSpec spec = LoadDividing(dir);
  std::swap(spec.params[0], spec.params[1]);  // STEP first: the constraint is complete after it
  try {
    EnumerateCandidates(spec, DefaultSize(spec));
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_NE(std::string(e.what()).find("for candidates with STEP=0 (at N=1024): division by zero"), std::string::npos)
        << e.what();
  }
}

// A large space counted with its progress on (as `tuner import t1` counts it), in a batch job's
// plain lines on a clock that moves a second at each reading: lines of the combinations behind the
// count, rising to all of them, and the same count as without.
TEST(SearchSpace, CountingALargeSpaceReportsTheCombinationsBehindIt) {
  TemplateSpec spec;
  spec.description_path = "big.toml";
  std::vector<long long> values(200);
  for (std::size_t v = 0; v < values.size(); ++v) values[v] = static_cast<long long>(v);
  spec.params = {{"A", values, {}, false}, {"B", values, {}, false}};
  spec.constraints = {"B <= A && A < 150"};  // nothing valid in the last quarter: the end is reported anyway
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  std::size_t counted = 0;
  {
    ProgressBar bar(ProgressStyle::kLines, "tuner import: combinations counted", false, out,
                    [t = std::chrono::steady_clock::time_point{}]() mutable { return t += std::chrono::seconds(1); });
    counted = CountCandidates(spec, ProblemSize{}, std::numeric_limits<std::size_t>::max(), &bar);
    bar.Finish();
  }
  EXPECT_EQ(counted, CountCandidates(spec, ProblemSize{}));
  EXPECT_EQ(counted, 150u * 151u / 2);
  std::rewind(out);
  std::vector<std::size_t> behind;
  char line[256];
  while (std::fgets(line, sizeof line, out)) {
    if (std::string(line).find(" to do; at the pace of the first ") != std::string::npos) continue;  // the estimate
    std::size_t done = 0, total = 0;
    ASSERT_EQ(std::sscanf(line, "tuner import: combinations counted: %zu/%zu", &done, &total), 2) << line;
    EXPECT_EQ(total, 40000u);
    behind.push_back(done);
  }
  std::fclose(out);
  ASSERT_GE(behind.size(), 10u);  // every 5% at least
  EXPECT_TRUE(std::is_sorted(behind.begin(), behind.end()));
  EXPECT_EQ(behind.back(), 40000u);
}

// Shipped templates (and the ones a test folder adds) at their default sizes.
TEST(SearchSpace, EveryShippedTemplateGivesTheEnumerationsCandidatesInItsOrder) {
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  ASSERT_FALSE(library.templates.empty());
  for (const TemplateSpec& spec : library.templates) {
    const ProblemSize size = DefaultSize(spec);
    const std::vector<ParamValues> built = EnumerateCandidates(spec, size);
    EXPECT_EQ(built, testing::CompiledOdometerEnumeration(spec, size)) << spec.name;
    if (CountCombinations(spec) <= 20000) {  // the enumeration tuner used, verbatim, where it is quick
      EXPECT_EQ(built, testing::ParsingOdometerEnumeration(spec, size)) << spec.name;
    }
    EXPECT_EQ(CountCandidates(spec, size), built.size()) << spec.name;
  }
}

// A random space: 0 to 5 parameters of 1 to 5 values (zero included) and up to 4 constraints that
// read any parameters, in any order, and the size N, with the operators templates use.
TemplateSpec RandomSpace(std::mt19937& rng) {
  const auto below = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  TemplateSpec spec;
  spec.description_path = "random.toml";
  const int params = below(6);
  for (int p = 0; p < params; ++p) {
    ParamSpec param{std::string(1, static_cast<char>('A' + p)), {}, {}};
    for (int v = 1 + below(5); v > 0; --v) param.values.push_back(below(9));
    spec.params.push_back(param);
  }
  const auto name = [&] { return params == 0 || below(5) == 0 ? std::string("N") : spec.params[below(params)].name; };
  const std::vector<std::string> shapes = {"{0} * {1} <= 24",
                                           "{0} + 1 > {1}",
                                           "{1} == 0 ? 1 : {0} % {1} != 1",
                                           "{0} < 5 || {1} >= 3",
                                           "N > 3",
                                           "min({0}, {1}) != 2 && {0} != 7",
                                           "1"};
  for (int c = below(5); c > 0; --c) {
    std::string constraint = shapes[below(static_cast<int>(shapes.size()))];
    for (const std::string slot : {"{0}", "{1}"}) {
      const std::string chosen = name();  // the same at every place of the slot: a guard guards its own divisor
      for (std::size_t at; (at = constraint.find(slot)) != std::string::npos;)
        constraint.replace(at, slot.size(), chosen);
    }
    spec.constraints.push_back(constraint);
  }
  return spec;
}

TEST(SearchSpace, RandomSpacesGiveTheEnumerationsCandidatesInItsOrder) {
  std::mt19937 rng(20261123);
  for (int round = 0; round < 500; ++round) {
    const TemplateSpec spec = RandomSpace(rng);
    const ProblemSize size{{{"N", 1 + round % 7}}};
    std::string where = "round " + std::to_string(round) + ":";
    for (const std::string& c : spec.constraints) where += " [" + c + "]";
    EXPECT_EQ(EnumerateCandidates(spec, size), testing::ParsingOdometerEnumeration(spec, size)) << where;
  }
}

TEST(SearchSpace, NoParametersIsOneEmptyCandidateAndAFalseSizeConstraintNone) {
  TemplateSpec spec;
  const ProblemSize size{{{"N", 4}}};
  EXPECT_EQ(EnumerateCandidates(spec, size), std::vector<ParamValues>{ParamValues{}});
  spec.params.push_back({"A", {1, 2}, {}});
  spec.constraints = {"N > 8"};
  EXPECT_TRUE(EnumerateCandidates(spec, size).empty());
}

TEST(SearchSpace, MoreCandidatesThanTheLimitAreRefusedNamingTheCount) {
  TemplateSpec spec;
  spec.description_path = "wide.toml";
  for (const char* name : {"A", "B", "C"}) spec.params.push_back({name, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {}});
  spec.constraints = {"A <= B"};  // 550 of 1000
  const ProblemSize size;
  EXPECT_EQ(EnumerateCandidates(spec, size, 550).size(), 550u);
  EXPECT_EQ(CountCandidates(spec, size), 550u);
  EXPECT_EQ(CountCandidates(spec, size, 100), 100u);  // stops there
  try {
    EnumerateCandidates(spec, size, 549);
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_NE(
        std::string(e.what()).find("wide.toml: more than 549 valid candidates at no sizes (of 1000 combinations)"),
        std::string::npos)
        << e.what();
  }
}

// A space whose constraints prune only at its last parameter is walked combination by combination:
// past the limit of combinations tried the walk stops, naming the limit.
TEST(SearchSpace, WalkingMoreCombinationsThanTheLimitStopsNamingIt) {
  TemplateSpec spec;
  spec.description_path = "late.toml";
  for (const char* name : {"A", "B", "C"}) spec.params.push_back({name, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {}});
  spec.constraints = {"C == 11"};  // nothing valid: every combination is tried
  const testing::LimitOverride combinations(InputLimit::kCombinations, "1110");  // 10 + 100 + 1000 tries
  EXPECT_EQ(CountCandidates(spec, ProblemSize{}), 0u);
  const testing::LimitOverride fewer(InputLimit::kCombinations, "1000");
  try {
    CountCandidates(spec, ProblemSize{});
    FAIL() << "the walk went on past the limit";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("late.toml: the candidates at no sizes: more than 1000 parameter "
                                         "combinations tried (the limit; raise it with TUNER_LIMIT_COMBINATIONS=N)"),
              std::string::npos)
        << e.what();
  }
}

// Ctrl-C during a long walk stops it (InterruptedError, exit 130 at the edge), in a child process so
// this test's own signal handling is left alone.
TEST(SearchSpace, CtrlCStopsAWalk) {
  const pid_t pid = fork();
  if (pid == 0) {
    static std::atomic<bool> interrupted{false};
    StopOnInterrupt(&interrupted);
    raise(SIGINT);
    TemplateSpec spec;
    spec.description_path = "long.toml";
    for (const char* name : {"A", "B", "C", "D"}) spec.params.push_back({name, std::vector<long long>(100, 1), {}});
    spec.constraints = {"D == 2"};  // 10^8 combinations: minutes, unless stopped
    try {
      CountCandidates(spec, ProblemSize{});
    } catch (const InterruptedError&) {
      _exit(7);
    }
    _exit(1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

}  // namespace
}  // namespace tuner
