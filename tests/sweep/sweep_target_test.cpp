// What a sweep tunes: the template at one size, checked there, its candidates enumerated once.
#include "sweep/sweep_target.h"

#include <gtest/gtest.h>

#include "base/errors.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::Replaced;

// The small template with two parameters and a constraint on the size.
TemplateSpec LoadStepped(const TempDir& dir, const std::string& steps) {
  std::string description =
      Replaced(testing::kSmallDescription, "kernel = \"k\"\n", "kernel = \"k\"\nconstraints = [\"N % STEP == 0\"]\n");
  description = Replaced(description, "[launch]",
                         "[[param]]\nname = \"BLOCK\"\nvalues = [128, 256]\n"
                         "[[param]]\nname = \"STEP\"\nvalues = [" +
                             steps + "]\n[launch]");
  return LoadTemplateFile(testing::WriteTemplateFiles(dir.File(""), "small", description));
}

TEST(SweepTarget, HoldsTheSizeAndTheCandidatesValidThere) {
  TempDir dir;
  const TemplateSpec spec = LoadStepped(dir, "3, 4");
  const SweepTarget at_12 = TargetAtSize(spec, ParseProblemSize(spec, "12"));
  EXPECT_EQ(at_12.size.Key(), "12");
  EXPECT_EQ(at_12.spec.name, "small");
  EXPECT_EQ(at_12.candidates.size(), 4u);  // 12 divides by 3 and by 4
  const SweepTarget at_8 = TargetAtSize(spec, ParseProblemSize(spec, "8"));
  EXPECT_EQ(at_8.candidates, EnumerateCandidates(spec, at_8.size));
  EXPECT_EQ(at_8.candidates.size(), 2u);  // only STEP=4
}

// A constraint that cannot be evaluated is refused when the target is made, before any GPU.
TEST(SweepTarget, AConstraintThatCannotBeEvaluatedIsRefusedAtOnce) {
  TempDir dir;
  const TemplateSpec spec = LoadStepped(dir, "1, 0");
  EXPECT_THROW(TargetAtSize(spec, ParseProblemSize(spec, "")), TemplateError);
}

}  // namespace
}  // namespace tuner
