#include "search_space.h"

#include <gtest/gtest.h>

#include "db_test_util.h"
#include "template_fixtures.h"
#include "template_library.h"
#include "template_values.h"

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
  EXPECT_EQ(tiled, 20u);  // the 20-configuration space of shared/MEASURED.md
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
  description = Replaced(description, "[launch]", "[[param]]\nname = \"BLOCK\"\nvalues = [128, 256, 512]\n"
                                                  "[[param]]\nname = \"STEP\"\nvalues = [1, 2, 0]\n[launch]");
  description = Replaced(description, "kernel = \"k_reference\"", "reference = \"own_configuration\"\nparams = { BLOCK = 512, STEP = 2 }");
  return LoadTemplateFile(testing::WriteTemplateFiles(dir.File(""), "dividing", description));
}

TEST(SearchSpace, ReferenceParamsComeFromTheCheckTable) {
  TempDir dir;
  const ParamValues ref = ReferenceParams(LoadDividing(dir));
  EXPECT_EQ(ref, (ParamValues{{"BLOCK", 512}, {"STEP", 2}}));  // not the first values, 128 and 1
  const ParamValues transpose = ReferenceParams(Transpose());  // no params in its [check]: the first values
  EXPECT_EQ(transpose, (ParamValues{{"VARIANT", 0}, {"TILE", 16}, {"ROWS", 4}, {"PAD", 0}}));
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

}  // namespace
}  // namespace tuner
