#include "template/template_values.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "cli_runner.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

TemplateSpec Spec() {
  TemplateSpec spec;
  spec.name = "t";
  spec.description_path = "/t/t.toml";
  spec.sizes = {{"W", 8}, {"H", 4}};
  spec.params = {{"B", {1, 2}, {}}};
  spec.launch = {{"cdiv(W, 1024)"}, {"B"}, "0"};
  spec.check.kernel = "t_reference";
  spec.check.params = {{"B", 1}};
  spec.check.launch = spec.launch;
  spec.args = {ArgSpec{"out", ScalarType::kFloat, true, "W * H", "", BufferInit::kPoison, true, ""},
               ArgSpec{"n", ScalarType::kInt, false, "", "W", BufferInit::kZero, false, ""}};
  spec.work.bytes = "4 * W * H";
  return spec;
}

std::string Problem(const TemplateSpec& spec, const std::string& size = "") {
  ProblemSize at = DefaultSize(spec);
  if (!size.empty()) at.values[0].second = std::stoll(size);
  const auto problem = FindValueProblem(spec, at);
  return problem ? problem->field + ": " + problem->problem : "";
}

TEST(TemplateValues, AValidTemplateHasNoProblem) { EXPECT_EQ(Problem(Spec()), ""); }

TEST(TemplateValues, BufferLengthsArePositiveWholeAndBounded) {
  TemplateSpec spec = Spec();
  spec.args[0].length = "W / 3";
  EXPECT_EQ(Problem(spec),
            "arg[0].length: in expression 'W / 3': gives 2.66666666667, not a whole number (at W=8 H=4)");
  spec.args[0].length = "W - 8";
  EXPECT_EQ(Problem(spec), "arg[0].length: 'W - 8' gives 0: a buffer needs at least one element (at W=8 H=4)");
  spec.args[0].length = "2^52";  // elements of 4 bytes: 2^54 bytes
  EXPECT_EQ(Problem(spec), "arg[0].length: '2^52' gives 4503599627370496 elements: more than 2^53 bytes (at W=8 H=4)");
  spec.args[0].length = "2^63";
  EXPECT_NE(Problem(spec).find("too large"), std::string::npos) << Problem(spec);
  spec.args[0].length = "W * H";
  EXPECT_EQ(Problem(spec, "0"), "arg[0].length: 'W * H' gives 0: a buffer needs at least one element (at W=0 H=4)");
}

TEST(TemplateValues, ScalarsFitTheirType) {
  TemplateSpec spec = Spec();
  EXPECT_EQ(Problem(spec, "2147483648"),
            "arg[1].value: 'W' gives 2147483648, which does not fit type int (-2147483648 to 2147483647) (at "
            "W=2147483648 H=4)");
  spec.args[1].type = ScalarType::kInt64;
  EXPECT_EQ(Problem(spec, "2147483648"), "");
  spec.args[1].value = "W / 3";
  EXPECT_NE(Problem(spec).find("not a whole number"), std::string::npos);
  spec.args[1].type = ScalarType::kDouble;
  EXPECT_EQ(Problem(spec), "");
}

TEST(TemplateValues, TolerancesAreWithinTheirLimits) {
  TemplateSpec spec = Spec();
  spec.check.atol = "-1";
  EXPECT_EQ(Problem(spec), "check.atol: is -1, negative: no output could pass (at W=8 H=4)");
  spec.check.atol = "W * 200";
  EXPECT_NE(Problem(spec).find("check.atol: is 1600, above 1000"), std::string::npos) << Problem(spec);
  spec.check.atol = "0";
  spec.check.rtol = "0.5";
  EXPECT_NE(Problem(spec).find("check.rtol: is 0.5, above 0.1"), std::string::npos) << Problem(spec);
}

TEST(TemplateValues, AnOwnConfigurationReferenceSatisfiesTheConstraints) {
  TemplateSpec spec = Spec();
  spec.check.own_configuration = true;
  spec.constraints = {"B > 1"};
  EXPECT_EQ(Problem(spec), "check: the reference configuration B=1 violates the constraint 'B > 1' (at W=8 H=4)");
  spec.check.params["B"] = 2;
  EXPECT_EQ(Problem(spec), "");
}

TEST(TemplateValues, WorkIsPositive) {
  TemplateSpec spec = Spec();
  spec.work.bytes = "W - 8";
  EXPECT_EQ(Problem(spec), "work.bytes: 'W - 8' gives 0: work must be positive (at W=8 H=4)");
}

TEST(TemplateValues, CheckValuesAtSizeNamesTheDescription) {
  TemplateSpec spec = Spec();
  spec.args[0].length = "W - 8";
  try {
    CheckValuesAtSize(spec, DefaultSize(spec));
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/t/t.toml: arg[0].length: 'W - 8' gives 0: a buffer needs at least one element (at W=8 H=4)");
  }
}

// `tune` checks the values at the sizes it is given, before any GPU or database: a length that is
// fine at the default size but not at --size is exit 2 with nothing created.
TEST(TemplateValues, TuneRefusesValuesWrongAtItsSizeBeforeAnyWork) {
  db::testing::TempDir dir;
  testing::WriteTemplateFiles(
      dir.File(""), "shrink",
      testing::Replaced(testing::Replaced(testing::kSmallDescription, "\"small\"", "\"shrink\""), "length = \"N\"",
                        "length = \"N - 100\""));
  const auto r = testing::RunTuner("tune shrink --size 64 --templates " + dir.File("") + " --db " + dir.File("t.db"),
                                   "env -u TUNER_TEMPLATES");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("arg[0].length: 'N - 100' gives -36: a buffer needs at least one element (at N=64)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

}  // namespace
}  // namespace tuner
