#include "exchange/json_entry_lines.h"

#include <gtest/gtest.h>

#include "base/errors.h"

namespace tuner {
namespace {

TEST(JsonEntryLines, FindsTheLineOfEachEntryOfAMember) {
  const std::string text =
      "{\n"
      "\"other\": {\"a\": {\"x\": 1}},\n"
      "\"cache\": {\n"
      "\"1\": {\"x\": {\"nested\": 1}},\n"
      "\n"
      "\"2\": {\"x\": 2}},\n"
      "\"results\": [\n"
      "  {\"y\": 1},\n"
      "  {\n"
      "    \"y\": 2\n"
      "  }\n"
      "]}\n";
  EXPECT_EQ(EntryLines(text, "cache"), (std::vector<std::size_t>{4, 6}));
  EXPECT_EQ(EntryLines(text, "results"), (std::vector<std::size_t>{8, 9}));
  EXPECT_TRUE(EntryLines(text, "missing").empty());
  EXPECT_EQ(EntryPlace({4, 6}, 1), "line 6");
  EXPECT_EQ(EntryPlace({}, 1), "entry 2");
}

TEST(JsonEntryLines, ASyntaxErrorNamesItsLineAndColumn) {
  try {
    ParseJsonNamingLine("{\n\"a\": 1,\n\"b\": tru\n}", "the file 'x'");
    FAIL() << "bad JSON was parsed";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("the file 'x': line 3, column"), std::string::npos) << e.what();
  }
}

TEST(JsonEntryLines, FindsTheFirstKeyAnObjectHoldsTwice) {
  EXPECT_FALSE(FindDuplicateKey("{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"c\": [{\"x\": 1}, {\"x\": 2}]}"));
  const auto nested = FindDuplicateKey("{\"a\": 1,\n\"b\": {\"x\": 1,\n\"y\": 2,\n\"x\": 3}, \"a\": 4}");
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->key, "x");
  EXPECT_EQ(nested->line, 4u);
  const auto top = FindDuplicateKey("{\"a\": 1, \"b\": [], \"a\": 1}");
  ASSERT_TRUE(top);
  EXPECT_EQ(top->key, "a");
  EXPECT_EQ(top->line, 1u);
}

}  // namespace
}  // namespace tuner
