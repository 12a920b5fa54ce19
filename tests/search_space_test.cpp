#include "search_space.h"

#include <gtest/gtest.h>

#include "template_library.h"

namespace tuner {
namespace {

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

TEST(SearchSpace, ReferenceParamsComeFromTheCheckTable) {
  const ParamValues ref = ReferenceParams(Transpose());
  ASSERT_EQ(ref.size(), Transpose().params.size());
  EXPECT_EQ(ref[0].first, "VARIANT");
}

}  // namespace
}  // namespace tuner
