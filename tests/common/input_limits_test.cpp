// The limits of untrusted input: each has a default, an environment variable that changes it, and a
// message that names both; a bad value of the variable is refused naming it.
#include "common/input_limits.h"

#include <gtest/gtest.h>

#include <set>

#include "base/errors.h"
#include "limit_override.h"

namespace tuner {
namespace {

using testing::LimitOverride;

TEST(InputLimits, EachLimitHasItsOwnVariableAndTheDefaultWhenItIsUnset) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < InputLimits().size(); ++i) {
    const InputLimitInfo& info = InputLimits()[i];
    EXPECT_EQ(static_cast<std::size_t>(info.limit), i) << info.env_var;
    EXPECT_EQ(std::string(info.env_var).rfind("TUNER_LIMIT_", 0), 0u) << info.env_var;
    EXPECT_TRUE(names.insert(info.env_var).second) << info.env_var;
    unsetenv(info.env_var);
    EXPECT_EQ(LimitValue(info.limit), info.default_value) << info.env_var;
  }
}

TEST(InputLimits, TheVariableChangesTheLimitAndTheMessageSaysHowToRaiseIt) {
  const LimitOverride depth(InputLimit::kNestingDepth, "7");
  EXPECT_EQ(LimitValue(InputLimit::kNestingDepth), 7u);
  EXPECT_EQ(LimitMessage(InputLimit::kNestingDepth),
            "more than 7 levels of nesting (the limit; raise it with TUNER_LIMIT_DEPTH=N)");
  try {
    LimitExceeded("the file 'x', line 3", InputLimit::kNestingDepth);
    FAIL() << "no refusal";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the file 'x', line 3: more than 7 levels of nesting (the limit; raise it with TUNER_LIMIT_DEPTH=N); "
              "nothing was changed");
  }
}

TEST(InputLimits, AVariableThatIsNotAWholeNumberAboveZeroIsRefusedByName) {
  for (const char* bad : {"0", "-3", "ten", "1e6", ""}) {
    const LimitOverride entries(InputLimit::kEntries, bad);
    try {
      LimitValue(InputLimit::kEntries);
      FAIL() << "accepted " << bad;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("TUNER_LIMIT_ENTRIES="), std::string::npos) << e.what();
    }
  }
}

TEST(InputLimits, AnExcerptQuotesAtMostTwoHundredCharactersOnOneLine) {
  EXPECT_EQ(Excerpt("short\nline"), "short\\nline");
  const std::string excerpt = Excerpt(std::string(1 << 20, 'x'));
  EXPECT_LT(excerpt.size(), 240u);
  EXPECT_NE(excerpt.find("(1048376 more bytes)"), std::string::npos) << excerpt;
  std::string accents(199, 'a');
  for (int i = 0; i < 50; ++i) accents += "\xc3\xa9";  // é: the cut falls inside one
  EXPECT_EQ(Excerpt(accents).substr(0, 204), std::string(199, 'a') + "\xc3\xa9...");
  EXPECT_LT(Excerpt(std::string(5000, '\0')).size(), 240u);  // each byte escaped as four characters
}

}  // namespace
}  // namespace tuner
