// A sweep checked against its own configuration stops when its wrong results follow a parameter.
#include "sweep/wrong_results_follow.h"

#include <gtest/gtest.h>

#include <functional>

namespace tuner {
namespace {

// A stencil checked against its configuration STEPS=1 BLOCK=64 TILE=1.
TemplateSpec Stencil() {
  TemplateSpec spec;
  spec.name = "stencil";
  spec.params = {{"STEPS", {1, 2, 4}, {}, false}, {"BLOCK", {64, 128, 256}, {}, false}, {"TILE", {1, 2}, {}, false}};
  spec.check.own_configuration = true;
  spec.check.params = {{"STEPS", 1}, {"BLOCK", 64}, {"TILE", 1}};
  return spec;
}

// Every candidate in enumeration order, BLOCK fastest.
std::vector<ParamValues> All() {
  std::vector<ParamValues> all;
  for (long long tile : {1, 2})
    for (long long steps : {1, 2, 4})
      for (long long block : {64, 128, 256}) all.push_back({{"STEPS", steps}, {"BLOCK", block}, {"TILE", tile}});
  return all;
}

long long Value(const ParamValues& params, const std::string& name) {
  for (const auto& [n, v] : params)
    if (n == name) return v;
  return -1;
}

// The message of the stop, or "" when every candidate was added without one.
std::string StopMessage(const TemplateSpec& spec, const std::function<CandidateStatus(const ParamValues&)>& status) {
  WrongResultsFollow follow(spec);
  try {
    for (const ParamValues& p : All()) follow.Add(p, status(p));
  } catch (const WrongResultsFollowStop& e) {
    return e.what();
  }
  return "";
}

CandidateStatus WrongUnlessOneStep(const ParamValues& p) {
  return Value(p, "STEPS") == 1 ? CandidateStatus::kOk : CandidateStatus::kWrongResult;
}

TEST(WrongResultsFollow, NamesTheParameterTheWrongResultsFollowAndHowToDeclareIt) {
  const std::string message = StopMessage(Stencil(), WrongUnlessOneStep);
  EXPECT_NE(message.find("all 5 whose STEPS differs from the reference's are wrong, 3 of the 3 with its value right"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("output_depends_on = [\"STEPS\"]"), std::string::npos) << message;
  EXPECT_NE(message.find("--output-depends-on STEPS"), std::string::npos) << message;
  EXPECT_NE(message.find("STEPS=1 BLOCK=64 TILE=1"), std::string::npos) << message;
  EXPECT_EQ(message.find("BLOCK"), message.find("BLOCK=64")) << message;
  EXPECT_EQ(message.find("TILE differs"), std::string::npos) << message;
}

TEST(WrongResultsFollow, StopsWithinTheFirstCandidatesNotAfterAll) {
  const TemplateSpec spec = Stencil();
  WrongResultsFollow follow(spec);
  std::size_t added = 0;
  try {
    for (const ParamValues& p : All()) {
      ++added;
      follow.Add(p, WrongUnlessOneStep(p));
    }
  } catch (const WrongResultsFollowStop&) {
  }
  EXPECT_EQ(added, 8u);  // at least 8 checked, 4 of them wrong
}

TEST(WrongResultsFollow, SaysNothingWhenTheOutputAlreadyFollowsTheParameter) {
  TemplateSpec spec = Stencil();
  spec.check.output_depends_on = {"STEPS"};
  EXPECT_EQ(StopMessage(spec, WrongUnlessOneStep), "");
}

TEST(WrongResultsFollow, SaysNothingForAnIndependentReference) {
  TemplateSpec spec = Stencil();
  spec.check.own_configuration = false;
  EXPECT_EQ(StopMessage(spec, WrongUnlessOneStep), "");
}

TEST(WrongResultsFollow, WrongResultsThatFollowNoParameterAreRecordedNotStopped) {
  // A bug of some configurations only: BLOCK=256 with TILE=2 is wrong, nothing else.
  const auto buggy = [](const ParamValues& p) {
    return Value(p, "BLOCK") == 256 && Value(p, "TILE") == 2 ? CandidateStatus::kWrongResult : CandidateStatus::kOk;
  };
  EXPECT_EQ(StopMessage(Stencil(), buggy), "");
}

TEST(WrongResultsFollow, OtherFailuresNeitherCountNorBreakThePattern) {
  const auto with_faults = [](const ParamValues& p) {
    return Value(p, "BLOCK") == 128 ? CandidateStatus::kCompileError : WrongUnlessOneStep(p);
  };
  EXPECT_NE(StopMessage(Stencil(), with_faults).find("whose STEPS differs from the reference's are wrong"),
            std::string::npos);
}

TEST(WrongResultsFollow, EveryCandidateWrongStopsAndSuspectsTheReferenceConfiguration) {
  const std::string message = StopMessage(Stencil(), [](const ParamValues&) { return CandidateStatus::kWrongResult; });
  EXPECT_NE(message.find("every one of the first 8 candidates checked of stencil differs from the reference"),
            std::string::npos)
      << message;
  // The first 8 all have TILE=1, the reference's; BLOCK and STEPS take its values too.
  EXPECT_EQ(message.find("none of these candidates has"), std::string::npos) << message;
}

TEST(WrongResultsFollow, EveryCandidateWrongNamesTheParametersNoneOfThemShares) {
  const TemplateSpec spec = Stencil();
  WrongResultsFollow follow(spec);
  std::string message;
  try {
    for (long long block : {128, 256})
      for (long long steps : {2, 4})
        for (int i = 0; i < 2; ++i)
          follow.Add({{"STEPS", steps}, {"BLOCK", block}, {"TILE", 1}}, CandidateStatus::kWrongResult);
  } catch (const WrongResultsFollowStop& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("(none of these candidates has the reference's value of STEPS, BLOCK)"), std::string::npos)
      << message;
}

TEST(WrongResultsFollow, AWrongCandidateWithTheReferencesValueIsABugOfItsOwnNotAContradiction) {
  // The stencil's STEPS as above, and one configuration with one step wrong too.
  const auto also_buggy = [](const ParamValues& p) {
    return Value(p, "BLOCK") == 128 ? CandidateStatus::kWrongResult : WrongUnlessOneStep(p);
  };
  const std::string message = StopMessage(Stencil(), also_buggy);
  EXPECT_NE(message.find("whose STEPS differs from the reference's are wrong, 2 of the 3 with its value right"),
            std::string::npos)
      << message;
}

TEST(WrongResultsFollow, ABuggyVariantIsRecordedNotTakenForAnOutputThatFollowsIt) {
  // TILE has one value besides the reference's: every TILE=2 wrong is a bug of that variant.
  const auto buggy_tile = [](const ParamValues& p) {
    return Value(p, "TILE") == 2 ? CandidateStatus::kWrongResult : CandidateStatus::kOk;
  };
  TemplateSpec spec = Stencil();
  WrongResultsFollow follow(spec);
  for (long long steps : {1, 2, 4})
    for (long long tile : {1, 2})
      for (long long block : {64, 128, 256}) {
        const ParamValues p{{"STEPS", steps}, {"BLOCK", block}, {"TILE", tile}};
        EXPECT_NO_THROW(follow.Add(p, buggy_tile(p)));
      }
}

TEST(WrongResultsFollow, AFewWrongResultsAmongManyRightOnesSayNothing) {
  // Wrong exactly where TILE=2, but TILE=2 comes last: past the window nothing is looked for.
  const auto late = [](const ParamValues& p) {
    return Value(p, "TILE") == 2 ? CandidateStatus::kWrongResult : CandidateStatus::kOk;
  };
  TemplateSpec spec = Stencil();
  WrongResultsFollow follow(spec, 8, 4);
  std::vector<ParamValues> all = All();
  for (int round = 0; round < 4; ++round)  // 36 right ones first: the window closes
    for (std::size_t i = 0; i < 9; ++i) follow.Add(all[i], CandidateStatus::kOk);
  for (const ParamValues& p : all) EXPECT_NO_THROW(follow.Add(p, late(p)));
}

}  // namespace
}  // namespace tuner
