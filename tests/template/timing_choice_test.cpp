// A sweep's timing mode: the template's [timing] mode read strictly, --timing over it, isolated when
// neither says, and a batched mode refused (never replaced) where a batch of launches cannot run.
#include "template/timing_choice.h"

#include <gtest/gtest.h>

#include <functional>

#include "base/errors.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::Replaced;
using testing::WriteTemplateFiles;

TemplateSpec LoadTimed(const TempDir& dir, const std::string& description) {
  return LoadTemplateFile(WriteTemplateFiles(dir.File("t"), "small", description));
}

// The message of the error `run` throws ("" when it throws none): a TemplateError or a UsageError.
std::string TimingErrorOf(const std::function<void()>& run) {
  try {
    run();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::string TimingLoadError(const std::string& description) {
  TempDir dir;
  return TimingErrorOf([&] { LoadTimed(dir, description); });
}

std::string WithTiming(const std::string& mode) {
  return std::string(testing::kSmallDescription) + "[timing]\nmode = \"" + mode + "\"\n";
}

// The small template with its output cleared before each launch, as an accumulator's is.
std::string Accumulating(const std::string& description) {
  return Replaced(description, "output = true", "output = true\ninit = \"zero\"");
}

std::string ChoiceError(const TemplateSpec& spec, TimingMode asked) {
  return TimingErrorOf([&] { ChooseTimingMode(spec, asked); });
}

TEST(TimingChoice, ATemplateThatSaysNothingIsTimedIsolated) {
  TempDir dir;
  const TemplateSpec spec = LoadTimed(dir, testing::kSmallDescription);
  EXPECT_FALSE(spec.timing_mode.has_value());
  const TimingChoice choice = ChooseTimingMode(spec, std::nullopt);
  EXPECT_EQ(choice.mode, TimingMode::kIsolated);
  EXPECT_EQ(choice.source, "the default (the template says none)");
}

TEST(TimingChoice, TheTemplatesModeIsTheDefaultAndTheOptionOverridesIt) {
  TempDir dir;
  const TemplateSpec spec = LoadTimed(dir, WithTiming("graph"));
  ASSERT_TRUE(spec.timing_mode.has_value());
  EXPECT_EQ(*spec.timing_mode, TimingMode::kGraph);
  EXPECT_EQ(ChooseTimingMode(spec, std::nullopt).mode, TimingMode::kGraph);
  EXPECT_EQ(ChooseTimingMode(spec, std::nullopt).source, "the template");
  EXPECT_EQ(ChooseTimingMode(spec, TimingMode::kBackToBack).mode, TimingMode::kBackToBack);
  EXPECT_EQ(ChooseTimingMode(spec, TimingMode::kIsolated).source, "--timing");
}

TEST(TimingChoice, AnUnknownModeOrKeyIsATemplateError) {
  EXPECT_NE(TimingLoadError(WithTiming("warm")).find("timing.mode: unknown mode 'warm' (isolated, back_to_back or graph)"),
            std::string::npos)
      << TimingLoadError(WithTiming("warm"));
  EXPECT_NE(TimingLoadError(std::string(testing::kSmallDescription) + "[timing]\nmodus = \"graph\"\n").find("unknown key"),
            std::string::npos);
}

TEST(TimingChoice, AnOutputResetBeforeEachLaunchCannotBeBatched) {
  TempDir dir;
  const TemplateSpec spec = LoadTimed(dir, Accumulating(testing::kSmallDescription));
  EXPECT_NE(UnbatchableReason(spec).find("output 'out' is reset before each launch"), std::string::npos);
  EXPECT_EQ(ChooseTimingMode(spec, TimingMode::kIsolated).mode, TimingMode::kIsolated);
  for (TimingMode mode : {TimingMode::kBackToBack, TimingMode::kGraph}) {
    const std::string error = ChoiceError(spec, mode);
    EXPECT_NE(error.find(std::string("--timing ") + ToText(mode) + " cannot time small: its output 'out'"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("use --timing isolated"), std::string::npos) << error;
  }
  const std::string in_template = TimingLoadError(Accumulating(WithTiming("back_to_back")));
  EXPECT_NE(in_template.find("'back_to_back' cannot time this template: its output 'out'"), std::string::npos)
      << in_template;
  EXPECT_EQ(TimingLoadError(Accumulating(WithTiming("isolated"))), "");
}

TEST(TimingChoice, ABatchableTemplateHasNoReasonAndAPipelineHasOne) {
  TempDir dir;
  TemplateSpec spec = LoadTimed(dir, testing::kSmallDescription);
  EXPECT_EQ(UnbatchableReason(spec), "");
  spec.pipeline.enabled = true;  // a [pipeline] template (pipeline_spec_test.cpp reads one)
  EXPECT_NE(UnbatchableReason(spec).find("its [pipeline] runs from host memory to host memory"), std::string::npos);
  EXPECT_NE(ChoiceError(spec, TimingMode::kGraph).find("[pipeline]"), std::string::npos);
}

}  // namespace
}  // namespace tuner
