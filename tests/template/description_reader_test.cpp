#include "template/description_reader.h"

#include <gtest/gtest.h>

#include <functional>
#include <string_view>

#include "template/template_spec.h"

namespace tuner {
namespace {

toml::table Parse(std::string_view text, std::string_view file) { return toml::parse(text, file); }

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const TemplateError& e) {
    return e.what();
  }
  return "";
}

// The errors a fresh reader keeps while `read` runs, as ThrowIfErrors reports them.
std::string KeptErrors(const std::function<void(const DescriptionReader&)>& read) {
  const DescriptionReader r("d.toml");
  read(r);
  return ErrorOf([&] { r.ThrowIfErrors(); });
}

TEST(DescriptionReader, UnknownKeysNameTheLineAndTheNearestKey) {
  const toml::table table = Parse("grid = [1]\nblok = [2]\n", "d.toml");
  EXPECT_EQ(KeptErrors([&](const DescriptionReader& r) {
              r.AllowOnly(table, "launch", {"grid", "block"});
            }),
            "d.toml:2: launch.blok: unknown key (did you mean `block`?)");
  EXPECT_EQ(KeptErrors([&](const DescriptionReader& r) {
              r.AllowOnly(table, "launch", {"grid", "block", "blok"});
            }),
            "");
  EXPECT_EQ(KeptErrors([&](const DescriptionReader& r) {
              r.AllowOnly(table, "launch", {"grid", "shared_bytes"}, {"blok"});
            }),
            "d.toml:2: launch.blok: unknown key (a top-level key: write it before the first table)");
}

// Every unknown key of a table, every bad expression of a list and every failing part is reported.
TEST(DescriptionReader, EveryErrorIsKeptAndReportedOnce) {
  const toml::table t = Parse("grd = [1]\nblok = [2]\ne = [\"A\", \"N\", \"B\"]\ns = 5\n", "d.toml");
  EXPECT_EQ(KeptErrors([&](const DescriptionReader& r) {
              r.AllowOnly(t, "launch", {"grid", "block", "e", "s"});
              r.Part([&] { r.Expressions(t.get("e"), "e", {{"N", 1}}); });
              r.Part([&] { r.String(t, "s", "s", true); });
              r.Part([] {});
            }),
            "d.toml:1: launch.grd: unknown key (did you mean `grid`?)\n"
            "  d.toml:2: launch.blok: unknown key (did you mean `block`?)\n"
            "  d.toml:3: e: in expression 'A': unknown name 'A'\n"
            "  d.toml:3: e: in expression 'B': unknown name 'B'\n"
            "  d.toml:4: s: must be a string");
}

TEST(DescriptionReader, ValuesHaveTheirTypes) {
  const toml::table t = Parse("s = 5\nb = \"yes\"\ni = 1.5\nlist = [\"a\", 3]\nf = nan\n", "d.toml");
  const DescriptionReader r("d.toml");
  EXPECT_EQ(ErrorOf([&] { r.String(t, "s", "s", true); }), "d.toml:1: s: must be a string");
  EXPECT_EQ(ErrorOf([&] { r.Bool(t, "b", "b", false); }), "d.toml:2: b: must be true or false");
  EXPECT_EQ(ErrorOf([&] { r.Integer(t, "i", "i"); }), "d.toml:3: i: must be an integer");
  EXPECT_EQ(ErrorOf([&] { r.Strings(t.get("list"), "list"); }), "d.toml:4: list: must hold strings");
  EXPECT_EQ(ErrorOf([&] { r.NumberOrExpression(t.get("f"), "f", {}); }), "d.toml:5: f: must be finite");
  EXPECT_FALSE(r.Bool(t, "absent", "absent", false));
}

TEST(DescriptionReader, ExpressionsAreCheckedWhereTheyAreWritten) {
  const toml::table t = Parse("e = [\n  \"N + 1\",\n  \"N + M\",\n]\nc = [5]\n", "d.toml");
  const DescriptionReader r("d.toml");
  EXPECT_EQ(ErrorOf([&] {
              r.Expressions(t.get("e"), "e", {{"N", 1}});
            }),
            "d.toml:3: e: in expression 'N + M': unknown name 'M'");
  EXPECT_EQ(r.Expressions(t.get("c"), "c", {}), (std::vector<std::string>{"5"}));
  EXPECT_EQ(ErrorOf([&] { r.Expressions(t.get("c"), "c", {}, false); }), "d.toml:5: c: must hold expression strings");
}

}  // namespace
}  // namespace tuner
