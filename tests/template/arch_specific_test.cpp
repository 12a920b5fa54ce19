// The [arch_specific] table of a description: read strictly, and the architecture each candidate
// compiles for, or why it cannot run on a GPU (no GPU needed).
#include "template/arch_specific.h"

#include <gtest/gtest.h>

#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::Replaced;

const std::string kDescription = Replaced(testing::kSmallDescription, "[launch]", R"toml([[param]]
name = "INSTR"
values = [0, 1]
labels = ["mma_sync", "wgmma"]
[arch_specific]
when = "INSTR == 1"
target = "sm_90a"
why = "wgmma"
[launch])toml");

TemplateSpec LoadArchTemplate(const TempDir& dir, const std::string& description) {
  return LoadTemplateFile(testing::WriteTemplateFiles(dir.File("t"), "small", description));
}

std::string ArchLoadError(const std::string& description) {
  TempDir dir;
  return testing::LoadErrorOf(testing::WriteTemplateFiles(dir.File("t"), "small", description));
}

CandidateArch ArchOf(const TemplateSpec& spec, long long instr, const std::string& gpu_arch) {
  return ArchOfCandidate(spec, {{"N", 1024}, {"INSTR", instr}}, gpu_arch);
}

TEST(ArchSpecific, ReadsTheTable) {
  TempDir dir;
  const TemplateSpec spec = LoadArchTemplate(dir, kDescription);
  EXPECT_EQ(spec.arch_specific.when, "INSTR == 1");
  EXPECT_EQ(spec.arch_specific.target, "sm_90a");
  EXPECT_EQ(spec.arch_specific.why, "wgmma");
  EXPECT_TRUE(LoadArchTemplate(dir, testing::kSmallDescription).arch_specific.when.empty());
}

TEST(ArchSpecific, RefusesAMissingConditionAPlainTargetAndUnknownKeys) {
  EXPECT_NE(ArchLoadError(Replaced(kDescription, "when = \"INSTR == 1\"\n", "")).find("arch_specific.when: is required"),
            std::string::npos);
  for (const char* target : {"sm_90", "90a", "compute_90a", "sm_90x", ""}) {
    const std::string error = ArchLoadError(Replaced(kDescription, "\"sm_90a\"", std::string("\"") + target + "\""));
    EXPECT_NE(error.find("arch_specific.target"), std::string::npos) << target << ": " << error;
    EXPECT_NE(error.find("'a' (sm_90a"), std::string::npos) << target << ": " << error;
  }
  EXPECT_NE(ArchLoadError(Replaced(kDescription, "why = ", "reason = ")).find("reason"), std::string::npos);
  EXPECT_NE(ArchLoadError(Replaced(kDescription, "INSTR == 1", "INSTRUCTION == 1")).find("INSTRUCTION"), std::string::npos);
}

TEST(ArchSpecific, OnlyTheCandidatesThatNeedTheTargetCompileForIt) {
  TempDir dir;
  const TemplateSpec spec = LoadArchTemplate(dir, kDescription);
  EXPECT_EQ(ArchOf(spec, 0, "sm_90").arch, "sm_90");
  EXPECT_EQ(ArchOf(spec, 0, "sm_80").arch, "sm_80");
  EXPECT_EQ(ArchOf(spec, 1, "sm_90").arch, "sm_90a");
  EXPECT_EQ(ArchOf(spec, 1, "sm_90").invalid_reason, "");
  EXPECT_EQ(ArchOf(spec, 1, "sm_90a").arch, "sm_90a");  // explore --arch sm_90a
  EXPECT_EQ(ArchOf(spec, 0, "sm_90a").arch, "sm_90a");
}

TEST(ArchSpecific, ElsewhereTheyAreInvalidWithTheReason) {
  TempDir dir;
  const TemplateSpec spec = LoadArchTemplate(dir, kDescription);
  const CandidateArch on_a100 = ArchOf(spec, 1, "sm_80");
  EXPECT_EQ(on_a100.arch, "");
  EXPECT_EQ(on_a100.invalid_reason, "needs sm_90a (wgmma): this GPU is sm_80, and sm_90a code runs only on sm_90");
  EXPECT_NE(ArchOf(spec, 1, "sm_100").invalid_reason.find("this GPU is sm_100"), std::string::npos);
  EXPECT_NE(ArchOf(spec, 1, "sm_100a").invalid_reason.find("this GPU is sm_100,"), std::string::npos);
  const TemplateSpec plain = LoadArchTemplate(dir, Replaced(kDescription, "why = \"wgmma\"\n", ""));
  EXPECT_EQ(ArchOf(plain, 1, "sm_89").invalid_reason,
            "needs sm_90a: this GPU is sm_89, and sm_90a code runs only on sm_90");
}

TEST(ArchSpecific, AFamilyTargetRunsOnItsLaterMembers) {
  TempDir dir;
  const TemplateSpec spec = LoadArchTemplate(dir, Replaced(kDescription, "\"sm_90a\"", "\"sm_100f\""));
  EXPECT_EQ(ArchOf(spec, 1, "sm_100").arch, "sm_100f");
  EXPECT_EQ(ArchOf(spec, 1, "sm_103").arch, "sm_100f");
  EXPECT_EQ(ArchOf(spec, 1, "sm_90").invalid_reason,
            "needs sm_100f (wgmma): this GPU is sm_90, and sm_100f code runs only on sm_100 and the later sm_10x");
  EXPECT_NE(ArchOf(spec, 1, "sm_120").invalid_reason, "");
}

}  // namespace
}  // namespace tuner
