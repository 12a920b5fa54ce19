// The built-in architectures and the names --arch takes: exactly NVRTC's real-architecture names,
// variants as their own targets, and every other spelling refused with the name to use.
#include "occupancy/arch_table.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/errors.h"

namespace tuner {
namespace {

std::string Refusal(const std::string& arch) {
  try {
    ParseArch(arch);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ArchTable, TableNames) {
  for (const char* arch : {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_87",
                           "sm_89", "sm_90", "sm_100", "sm_120"})
    EXPECT_EQ(ArchLimits(arch).name, arch);
  EXPECT_EQ(KnownArchs().front(), "sm_50");
  EXPECT_EQ(KnownArchs().back(), "sm_121");
}

TEST(ArchTable, VariantsAreTheirOwnTargetWithTheBaseLimits) {
  const ArchTarget a = ParseArch("sm_90a");
  EXPECT_EQ(a.name, "sm_90a");
  EXPECT_EQ(a.limits.name, "sm_90a");
  const DeviceLimits base = ArchLimits("sm_90");
  EXPECT_EQ(a.limits.cc_major * 10 + a.limits.cc_minor, 90);
  EXPECT_EQ(a.limits.smem_per_sm_bytes, base.smem_per_sm_bytes);
  EXPECT_EQ(a.limits.max_threads_per_sm, base.max_threads_per_sm);
  EXPECT_EQ(ParseArch("sm_100f").name, "sm_100f");
  EXPECT_EQ(ParseArch("sm_121a").limits.cc_minor, 1);
  const std::vector<std::string> accepted = AcceptedArchs();
  for (const char* name : {"sm_75", "sm_90", "sm_90a", "sm_100a", "sm_100f", "sm_121f"})
    EXPECT_NE(std::find(accepted.begin(), accepted.end(), name), accepted.end()) << name;
  for (const char* name : {"sm_80a", "sm_90f"})
    EXPECT_EQ(std::find(accepted.begin(), accepted.end(), name), accepted.end()) << name;
}

TEST(ArchTable, OtherSpellingsAreRefusedWithTheNameToUse) {
  EXPECT_EQ(Refusal("SM_90"), "--arch 'SM_90': architectures are written like sm_90 (lower case, with sm_)");
  EXPECT_EQ(Refusal("SM_90A"), "--arch 'SM_90A': architectures are written like sm_90a (lower case, with sm_)");
  EXPECT_EQ(Refusal("compute_90"),
            "--arch 'compute_90': a virtual architecture (PTX); occupancy and cubins need a real one: sm_90");
  for (const char* spelling : {"90", "9.0", "sm90"})
    EXPECT_NE(Refusal(spelling).find("written like sm_90 "), std::string::npos) << spelling;
  EXPECT_NE(Refusal("10.0").find("written like sm_100 "), std::string::npos);
  EXPECT_EQ(Refusal("sm_80a"),
            "--arch 'sm_80a': sm_80 has no arch-specific (a) variant; those begin at sm_90a. Use sm_80");
  EXPECT_EQ(Refusal("sm_90f"), "--arch 'sm_90f': sm_90 has no family (f) variant; those begin at sm_100f. Use sm_90");
}

TEST(ArchTable, UnknownArchitecturesListTheKnownOnes) {
  for (const char* unknown : {"sm_91", "", "sm_x", "sm_900", "sm_90aa", "sm_90 ", "sm_9\n0"}) {
    const std::string message = Refusal(unknown);
    EXPECT_NE(message.find("not a known architecture; known: sm_50, "), std::string::npos)
        << unknown << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(ArchTable, H100MatchesTheMeasuredProperties) {
  const DeviceLimits d = ArchLimits("sm_90");  // measured on an H100 80GB HBM3 and an H200, CUDA 13.0
  EXPECT_EQ(d.smem_per_sm_bytes, 228u * 1024);
  EXPECT_EQ(d.smem_per_block_optin_bytes, 227u * 1024);
  EXPECT_EQ(d.reserved_smem_per_block_bytes, 1024u);
  EXPECT_EQ(d.regs_per_sm, 65536);
  EXPECT_EQ(d.max_threads_per_sm, 2048);
  EXPECT_EQ(d.max_blocks_per_sm, 32);
}

TEST(ArchTable, LargestLimitsAreTheTablesMaxima) {
  const DeviceLimits largest = LargestLimits();
  EXPECT_EQ(largest.max_threads_per_block, 1024);
  EXPECT_EQ(largest.max_threads_per_sm, 2048);
  EXPECT_EQ(largest.max_blocks_per_sm, 32);
  EXPECT_EQ(largest.regs_per_sm, 65536);
  EXPECT_EQ(largest.smem_per_sm_bytes, 228u * 1024);
  EXPECT_EQ(largest.smem_per_block_optin_bytes, 227u * 1024);
  EXPECT_EQ(largest.reserved_smem_per_block_bytes, 1024u);
}

}  // namespace
}  // namespace tuner
