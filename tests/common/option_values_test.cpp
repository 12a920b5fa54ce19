// Numbers from the command line: every refusal names the option and the value and says what is
// allowed.
#include "common/option_values.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "base/errors.h"

namespace tuner {
namespace {

// The message of the UsageError `parse` throws, "" when it throws none.
template <typename Parse>
std::string Refusal(Parse parse) {
  try {
    parse();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(OptionValues, WholeNumbersInRange) {
  EXPECT_EQ(ParseWholeNumber("budget", "0", 0), 0);
  EXPECT_EQ(ParseWholeNumber("budget", "40", 0), 40);
  EXPECT_EQ(ParseWholeNumber("regs", "255", 0, 255), 255);
  EXPECT_EQ(ParseWholeNumber("x", "-9223372036854775808", LLONG_MIN), LLONG_MIN);
  EXPECT_EQ(ParseWholeNumber("x", "9223372036854775807", 0), LLONG_MAX);
}

TEST(OptionValues, WholeNumbersRefusedWithTheOptionAndValue) {
  EXPECT_EQ(Refusal([] { ParseWholeNumber("budget", "-1", 0, LLONG_MAX, "0: no limit"); }),
            "--budget '-1': must be 0 or more (0: no limit)");
  EXPECT_EQ(Refusal([] { ParseWholeNumber("regs", "256", 0, 255); }), "--regs '256': must be between 0 and 255");
  EXPECT_EQ(Refusal([] { ParseWholeNumber("runs", "1.5", 1); }), "--runs '1.5': not a whole number");
  EXPECT_EQ(Refusal([] { ParseWholeNumber("runs", "99999999999999999999", 1); }),
            "--runs '99999999999999999999': too large; at most 9223372036854775807");
  EXPECT_EQ(Refusal([] { ParseWholeNumber("regs", "99999999999999999999", 0, 255); }),
            "--regs '99999999999999999999': must be between 0 and 255");
  for (const char* bad : {"", "-", "+", " 1", "1 ", "0x10", "1e3", "nan"})
    EXPECT_NE(Refusal([&] { ParseWholeNumber("budget", bad, 0); }).find("not a whole number"), std::string::npos)
        << bad;
}

TEST(OptionValues, SeedsCoverSixtyFourBitsButNotNegatives) {
  EXPECT_EQ(ParseSeed("seed", "18446744073709551615"), ULLONG_MAX);
  EXPECT_EQ(ParseSeed("seed", "0"), 0u);
  for (const char* bad : {"-1", "18446744073709551616", "one", ""})
    EXPECT_NE(Refusal([&] { ParseSeed("seed", bad); }).find("--seed '"), std::string::npos) << bad;
}

TEST(OptionValues, BytesTakeAKSuffix) {
  EXPECT_EQ(ParseBytes("smem", "4096", 0, 1 << 20), 4096);
  for (const char* k : {"16K", "16k", "16KB", "16KiB"}) EXPECT_EQ(ParseBytes("smem", k, 0, 1 << 20), 16384) << k;
  EXPECT_EQ(Refusal([] { ParseBytes("smem", "lots", 0, 1024); }),
            "--smem 'lots': not a number of bytes (bytes may take a K suffix: 16K)");
  EXPECT_EQ(Refusal([] { ParseBytes("smem-per-sm", "300K", 1, 228 * 1024); }),
            "--smem-per-sm '300K': must be between 1 and 233472 bytes = 228K");
  EXPECT_FALSE(Refusal([] { ParseBytes("smem", "-1K", 0, 1024); }).empty());
  EXPECT_FALSE(Refusal([] { ParseBytes("smem", "99999999999999999999K", 0, 1024); }).empty());
}

TEST(OptionValues, SecondsAreFiniteDecimals) {
  EXPECT_DOUBLE_EQ(ParseSeconds("budget-seconds", "0", 0, HUGE_VAL), 0);
  EXPECT_DOUBLE_EQ(ParseSeconds("timeout-floor", "2.5", 0.001, 86400), 2.5);
  EXPECT_DOUBLE_EQ(ParseSeconds("timeout-floor", "1e1", 0.001, 86400), 10);
  for (const char* bad : {"nan", "inf", "-inf", "infinity", "0x10", "", " 1", "1s", "--1"})
    EXPECT_NE(Refusal([&] { ParseSeconds("budget-seconds", bad, 0, HUGE_VAL); }).find("not a finite number of seconds"),
              std::string::npos)
        << bad;
  EXPECT_EQ(Refusal([] { ParseSeconds("budget-seconds", "-1", 0, HUGE_VAL); }),
            "--budget-seconds '-1': must be 0 or more seconds");
  EXPECT_EQ(Refusal([] { ParseSeconds("timeout-floor", "0", 0.001, 86400); }),
            "--timeout-floor '0': must be between 0.001 and 86400 seconds");
}

TEST(OptionValues, GpuIndexIsZeroOrMore) {
  EXPECT_EQ(ParseGpuIndex("gpu", "3"), 3);
  EXPECT_EQ(ParseGpuIndex("gpu", "99999999999"), INT_MAX);  // no such GPU: said once the GPUs are known
  EXPECT_EQ(Refusal([] { ParseGpuIndex("gpu", "-1"); }), "--gpu '-1': must be 0 or more (a GPU index)");
}

TEST(OptionValues, QuotedKeepsAMessageOnOneLine) {
  EXPECT_EQ(Quoted("a\nb\tc\x1b"), "'a\\nb\\tc\\x1b'");
  EXPECT_EQ(Quoted(""), "''");
  EXPECT_EQ(Quoted("\xc3\xa9<b>"), "'\xc3\xa9<b>'");  // UTF-8 and markup as they are
}

}  // namespace
}  // namespace tuner
