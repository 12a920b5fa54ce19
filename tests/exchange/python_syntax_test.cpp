#include "exchange/python_syntax.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

// The tree in prefix form: "(and (< a b) (< b c))".
std::string Shape(const PythonNodePtr& node) {
  switch (node->kind) {
    case PythonNode::kNumber: {
      std::string text = std::to_string(node->value);
      return text.substr(0, text.find('.'));
    }
    case PythonNode::kName:
      return node->text;
    case PythonNode::kProblemSize:
      return "ProblemSize" + std::to_string(static_cast<int>(node->value));
    default:
      break;
  }
  std::string text = "(" + (node->kind == PythonNode::kNegate ? std::string("neg") : node->text);
  for (const PythonNodePtr& child : node->children) text += " " + Shape(child);
  return text + ")";
}

std::string ErrorOf(const std::string& text) {
  try {
    ParsePython(text);
  } catch (const PythonExpressionError& e) {
    return e.what();
  }
  return "";
}

TEST(PythonSyntax, PythonsPrecedence) {
  EXPECT_EQ(Shape(ParsePython("a < b <= c")), "(and (< a b) (<= b c))");
  EXPECT_EQ(Shape(ParsePython("-2**-1")), "(neg (** 2 (neg 1)))");
  EXPECT_EQ(Shape(ParsePython("2**3**2")), "(** 2 (** 3 2))");
  EXPECT_EQ(Shape(ParsePython("not a == b or c and d")), "(or (not (== a b)) (and c d))");
  EXPECT_EQ(Shape(ParsePython("a - b - c // d % e")), "(- (- a b) (% (// c d) e))");
  EXPECT_EQ(Shape(ParsePython("x if c else y if d else z")), "( c x ( d y z))");
  EXPECT_EQ(Shape(ParsePython("a not in (1, 2,)")), "(not in a (() 1 2))");
  EXPECT_EQ(Shape(ParsePython("max(ProblemSize[1], True)")), "(max ProblemSize1 1)");
  EXPECT_EQ(Shape(ParsePython("0x10 + 1_000 + 2.5e1")), "(+ (+ 16 1000) 25)");
  // One `for` over one name, any number of `if`s; as the one argument of a call, a generator.
  EXPECT_EQ(Shape(ParsePython("[2**i for i in range(0, 6)]")), "([] i (** 2 i) (range 0 6))");
  EXPECT_EQ(Shape(ParsePython("[i for i in r if i > 1 if i < 5]")), "([] i i r (> i 1) (< i 5))");
  EXPECT_EQ(Shape(ParsePython("list(i for i in r)")), "(list (() i i r))");
  EXPECT_EQ(Shape(ParsePython("[[i for i in r]]")), "([] ([] i i r))");
  EXPECT_EQ(Shape(ParsePython("[1, 2] + list(range(32, 1024+1, 32))")), "(+ ([] 1 2) (list (range 32 (+ 1024 1) 32)))");
}

TEST(PythonSyntax, MalformedOrUnsupportedIsNamed) {
  EXPECT_EQ(ErrorOf("a & b"), "the bitwise operator '&' has no counterpart in the template syntax");
  EXPECT_NE(ErrorOf("a ^ b").find("Python's power is '**'"), std::string::npos);
  EXPECT_EQ(ErrorOf("a is b"), "'is' is not supported; compare values with '==' or '!='");
  EXPECT_EQ(ErrorOf("math.floor(a)"), "attributes ('math.floor') are not supported");
  EXPECT_NE(ErrorOf("a == 'x'").find("strings"), std::string::npos);
  EXPECT_EQ(ErrorOf("a = 1"), "'=' is not an operator (comparisons are '==' and '!=')");
  EXPECT_EQ(ErrorOf("(a + 1"), "expected ')' at the end");
  EXPECT_EQ(ErrorOf(""), "the expression is empty");
  EXPECT_EQ(ErrorOf("a b"), "unexpected 'b'");
  EXPECT_EQ(ErrorOf("[x for x, y in z]"), "a comprehension's 'for' over several names is not supported; use one name");
  EXPECT_EQ(ErrorOf("[x for x in y for y in z]"), "a comprehension with more than one 'for' is not supported");
  EXPECT_EQ(ErrorOf("[1, x for x in y]"), "a comprehension must be the only item: write [x for i in r]");
  EXPECT_EQ(ErrorOf("{x for x in y}"), "set and dict comprehensions are not supported; write a list, [x for i in r]");
  EXPECT_EQ(ErrorOf("[x for 2 in y]"), "a comprehension's 'for' takes a name, as in [2**i for i in range(6)]");
  EXPECT_EQ(ErrorOf("[x for x y]"), "expected 'in' after 'for x'");
  EXPECT_EQ(ErrorOf("x for x in y"), "unexpected 'for': a comprehension is written in brackets, [x for i in range(n)]");
  EXPECT_EQ(ErrorOf("lambda: 1"), "'lambda' is not supported");
  EXPECT_EQ(ErrorOf("a if b"), "'if' without 'else'");
  EXPECT_EQ(ErrorOf("X[0]"), "indexing ('X[...]') is supported only as ProblemSize[i]");
  EXPECT_EQ(ErrorOf("a $ b"), "the character '$' is not Python syntax");
}

// Python's own rules for a number: '_' only between digits, and no leading zero in a whole number.
TEST(PythonSyntax, NumbersArePythonsNumbers) {
  for (const char* refused : {"[1__0]", "[10_]", "[010]", "[1._5]", "[1e_5]", "[0x__1]", "[0x]"})
    EXPECT_NE(ErrorOf(refused).find("is not a number as Python writes one"), std::string::npos) << refused;
  for (const char* taken :
       {"[1_000]", "[00]", "[0_0]", "[0x_ff]", "[0XF_F]", "[010.5]", "[1e1_0]", "[.5]", "[1.]", "[1.5e-3]", "[010e1]"})
    EXPECT_EQ(ErrorOf(taken), "") << taken;
}

// 10,000 `and`s or 5,000 parentheses once overflowed the stack; now a message, as Python's
// own parser stops at 200 parentheses.
TEST(PythonSyntax, NestingIsBoundedWithAMessage) {
  const std::string too_deep =
      "the expression nests more than 200 levels deep (parentheses, calls, and operators in a row such as 'and' "
      "each count); split it into several conditions";
  std::string terms = "a > 0";
  for (int i = 1; i < 10000; ++i) terms += " and a > 0";
  EXPECT_EQ(ErrorOf(terms), too_deep);
  EXPECT_EQ(ErrorOf(std::string(5000, '(') + "a" + std::string(5000, ')')), too_deep);
  EXPECT_EQ(ErrorOf(std::string(5000, '-') + "a"), too_deep);
  EXPECT_EQ(ErrorOf(std::string(5000, '[') + std::string(5000, ']')), too_deep);
  std::string calls;
  for (int i = 0; i < 5000; ++i) calls += "abs(";
  EXPECT_EQ(ErrorOf(calls + "a" + std::string(5000, ')')), too_deep);
  // What Python itself takes still parses: 150 parentheses, 150 terms.
  EXPECT_EQ(ErrorOf(std::string(150, '(') + "a" + std::string(150, ')')), "");
  std::string fewer = "a";
  for (int i = 1; i < 150; ++i) fewer += " or a";
  EXPECT_EQ(ErrorOf(fewer), "");
}

}  // namespace
}  // namespace tuner
