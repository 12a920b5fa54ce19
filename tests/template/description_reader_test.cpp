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

TEST(DescriptionReader, UnknownKeysNameTheLineAndTheNearestKey) {
  const toml::table table = Parse("grid = [1]\nblok = [2]\n", "d.toml");
  const DescriptionReader r("d.toml");
  EXPECT_EQ(ErrorOf([&] {
              r.AllowOnly(table, "launch", {"grid", "block"});
            }),
            "d.toml:2: launch.blok: unknown key (did you mean `block`?)");
  EXPECT_EQ(ErrorOf([&] { r.AllowOnly(table, "launch", {"grid", "block", "blok"}); }), "");
  EXPECT_EQ(ErrorOf([&] {
              r.AllowOnly(table, "launch", {"grid", "shared_bytes"}, {"blok"});
            }),
            "d.toml:2: launch.blok: unknown key (a top-level key: write it before the first table)");
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
