// JSON from someone else's file: the entries of one member taken out with their lines, and every
// limit (depth, string length, entries, text size) and every refusal said in one short line.
#include "exchange/json_entry_lines.h"

#include <gtest/gtest.h>

#include "base/errors.h"
#include "limit_override.h"

namespace tuner {
namespace {

using testing::LimitOverride;

// The text as pieces of `piece_bytes`, as an inflating reader gives it.
std::function<bool(std::string*)> Pieces(const std::string& text, std::size_t piece_bytes) {
  auto at = std::make_shared<std::size_t>(0);
  return [text, piece_bytes, at](std::string* chunk) {
    if (*at >= text.size()) return false;
    *chunk = text.substr(*at, piece_bytes);
    *at += chunk->size();
    return true;
  };
}

std::string Refusal(const std::string& text, const std::string& member = "cache") {
  try {
    ParseJsonEntries(Pieces(text, 7), member, "the file 'x'");
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted " << text.substr(0, 100);
  return "";
}

TEST(JsonEntryLines, TakesOutTheEntriesOfAMemberWithTheirLines) {
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
  const JsonEntries cache = ParseJsonEntries(Pieces(text, 5), "cache", "x");
  ASSERT_EQ(cache.entries.size(), 2u);
  EXPECT_EQ(cache.entries[0].key, "1");
  EXPECT_EQ(EntryPlace(cache.entries[0]), "line 4");
  EXPECT_EQ(EntryPlace(cache.entries[1]), "line 6");
  EXPECT_EQ(cache.entries[0].value.dump(), R"({"x":{"nested":1}})");
  EXPECT_EQ(cache.document.dump(), R"({"other":{"a":{"x":1}},"cache":{},"results":[{"y":1},{"y":2}]})");
  const JsonEntries results = ParseJsonEntries(Pieces(text, 1000), "results", "x");
  ASSERT_EQ(results.entries.size(), 2u);
  EXPECT_EQ(results.entries[1].line, 9u);
  EXPECT_EQ(results.entries[1].value.dump(), R"({"y":2})");
  EXPECT_EQ(ParseBoundedJson(text, "x"), nlohmann::ordered_json::parse(text));
}

TEST(JsonEntryLines, ASyntaxErrorNamesItsLineAndColumnAndQuotesLittle) {
  EXPECT_NE(Refusal("{\n\"a\": 1,\n\"b\": tru\n}").find("the file 'x': line 3, column"), std::string::npos);
  const std::string spaces = Refusal(std::string(1 << 20, ' ') + "bad");
  EXPECT_LT(spaces.size(), 400u) << spaces.substr(0, 400);
  EXPECT_NE(spaces.find("not JSON"), std::string::npos) << spaces.substr(0, 400);
}

// Runs of blanks reach the parser as one (its lexer would hold them all), but never inside a string.
TEST(JsonEntryLines, BlanksInsideAStringAreKept) {
  const std::string text = "{\"a\":   \"x  \\\"  y\",\n\n   \"b\": [1,    2]}";
  EXPECT_EQ(ParseBoundedJson(text, "x"), nlohmann::ordered_json::parse(text));
  EXPECT_NE(Refusal("{\"a\": 1,\n\n\n     bad}").find("line 4, column 6"), std::string::npos);
}

TEST(JsonEntryLines, ANumberBeyondADoubleAndAKeyGivenTwiceAreRefused) {
  EXPECT_NE(Refusal(R"({"a": 1e400})").find("the number 1e400 is beyond the range of a double"), std::string::npos);
  EXPECT_NE(Refusal(R"({"cache": {"k": {"x": 1, "x": 2}}})").find("the key \"x\" is given twice"), std::string::npos);
}

TEST(JsonEntryLines, NestingDeeperThanTheLimitStopsAtOnce) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string refusal = Refusal(deep);
  EXPECT_NE(refusal.find("line 1, column 65: more than 64 levels of nesting"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("TUNER_LIMIT_DEPTH"), std::string::npos) << refusal;
  const LimitOverride depth(InputLimit::kNestingDepth, "3");
  EXPECT_NO_THROW(ParseBoundedJson("[[[1]]]", "x"));
  EXPECT_NE(Refusal("[[[[1]]]]").find("more than 3 levels"), std::string::npos);
}

TEST(JsonEntryLines, AStringLongerThanTheLimitIsRefusedUnquoted) {
  const LimitOverride value(InputLimit::kValueBytes, "1000");
  EXPECT_NO_THROW(ParseBoundedJson("{\"device_name\": \"" + std::string(1000, 'n') + "\"}", "x"));
  const std::string refusal = Refusal("{\"device_name\": \"" + std::string(1001, 'n') + "\"}");
  EXPECT_NE(refusal.find("more than 1000 bytes in one string value"), std::string::npos) << refusal;
  EXPECT_EQ(refusal.find("nnnn"), std::string::npos);
  EXPECT_NE(Refusal("{\"" + std::string(1001, 'k') + "\": 1}").find("TUNER_LIMIT_VALUE_BYTES"), std::string::npos);
}

TEST(JsonEntryLines, MoreEntriesThanTheLimitInOneListOrObjectAreRefused) {
  const LimitOverride entries(InputLimit::kEntries, "3");
  EXPECT_EQ(ParseJsonEntries(Pieces(R"({"cache": {"a": 1, "b": 2, "c": 3}})", 4), "cache", "x").entries.size(), 3u);
  EXPECT_NE(Refusal(R"({"cache": {"a": 1, "b": 2, "c": 3, "d": 4}})").find("more than 3 entries"), std::string::npos);
  EXPECT_NE(Refusal(R"({"other": [1, 2, 3, 4]})").find("TUNER_LIMIT_ENTRIES"), std::string::npos);
}

TEST(JsonEntryLines, TextBeyondTheInputLimitIsRefusedAsItArrives) {
  const LimitOverride bytes(InputLimit::kInputBytes, "1000");
  EXPECT_NO_THROW(ParseBoundedJson("[" + std::string(998, ' ') + "]", "x"));
  const std::string refusal = Refusal("[" + std::string(5000, ' ') + "]");
  EXPECT_NE(refusal.find("more than 1000 bytes of input text"), std::string::npos) << refusal;
}

TEST(JsonEntryLines, ManyEntriesAreReadInLinearTime) {
  std::string text = "{\"cache\": {\n";
  for (int i = 0; i < 100000; ++i) text += "\"" + std::to_string(i) + "\": {\"x\": " + std::to_string(i) + "},\n";
  text += "\"end\": {}}}";
  const auto start = std::chrono::steady_clock::now();
  const JsonEntries parsed = ParseJsonEntries(Pieces(text, 1 << 16), "cache", "x");
  EXPECT_EQ(parsed.entries.size(), 100001u);
  EXPECT_EQ(parsed.entries[99999].line, 100001u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));  // quadratic took ~20 s
}

}  // namespace
}  // namespace tuner
