#include "expression/expression_tokens.h"

#include <gtest/gtest.h>

#include <vector>

namespace tuner {
namespace {

std::vector<ExpressionToken> All(const std::string& expression) {
  ExpressionTokens tokens(expression);
  std::vector<ExpressionToken> all;
  do all.push_back(tokens.Next());
  while (all.back().kind != TokenKind::kEnd);
  return all;
}

std::string ProblemOf(const std::string& expression) {
  try {
    All(expression);
  } catch (const ExpressionProblem& e) {
    return e.what();
  }
  return "";
}

TEST(ExpressionTokens, ReadsNamesNumbersOperatorsAndPunctuation) {
  const std::vector<ExpressionToken> tokens = All("cdiv(N, 2.5e1) >= -_pi ? x1 : .5");
  const std::vector<TokenKind> kinds = {TokenKind::kFunction, TokenKind::kOpen,  TokenKind::kName,   TokenKind::kComma,
                                        TokenKind::kNumber,   TokenKind::kClose, TokenKind::kBinary, TokenKind::kPrefix,
                                        TokenKind::kNumber,   TokenKind::kIf,    TokenKind::kName,   TokenKind::kElse,
                                        TokenKind::kNumber,   TokenKind::kEnd};
  ASSERT_EQ(tokens.size(), kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(tokens[i].kind, kinds[i]) << i << " " << tokens[i].text;
  EXPECT_EQ(tokens[0].function->name, std::string("cdiv"));
  EXPECT_EQ(tokens[4].number, 25.0);
  EXPECT_EQ(tokens[6].operation, Operation::kGreaterOrEqual);  // not `>` then `=`
  EXPECT_EQ(tokens[7].operation, Operation::kNegate);
  EXPECT_EQ(tokens[8].number, 3.141592653589);
  EXPECT_EQ(tokens[10].text, "x1");
  EXPECT_EQ(tokens[12].number, 0.5);
}

TEST(ExpressionTokens, AFunctionNeedsItsParenthesisRightAfterTheName) {
  EXPECT_EQ(All("sin")[0].kind, TokenKind::kName);  // a variable's name then, unknown later
  EXPECT_EQ(ProblemOf("sin (1)"), "Unexpected parenthesis \"(\" at position 4");
}

TEST(ExpressionTokens, ASignWhereNoOperatorMayStand) {
  const std::vector<ExpressionToken> tokens = All("N*-B");
  EXPECT_EQ(tokens[1].kind, TokenKind::kBinary);
  EXPECT_EQ(tokens[2].kind, TokenKind::kPrefix);
  EXPECT_EQ(ProblemOf("N*-+B"), "Unexpected operator \"+\" found at position 4");  // one sign only
}

TEST(ExpressionTokens, EachTokenIsCheckedAgainstTheOneBefore) {
  EXPECT_EQ(ProblemOf("N 2"), "Unexpected value \"2\" found at position 2");
  EXPECT_EQ(ProblemOf("2 N"), "Unexpected variable \"N\" found at position 2");
  EXPECT_EQ(ProblemOf("(1)(2)"), "Unexpected parenthesis \"(\" at position 3");
  EXPECT_EQ(ProblemOf("()"), "Unexpected parenthesis \")\" at position 1");
  EXPECT_EQ(ProblemOf("1 +"), "Unexpected end of expression at position 4");  // counts the blank muparser appended
  EXPECT_EQ(ProblemOf(",1"), "Unexpected argument separator at position 0");
  EXPECT_EQ(ProblemOf("(?1)"), "The \"?\" operator must be preceded by a closing bracket.");
  EXPECT_EQ(ProblemOf("(== 1)"), "Unexpected operator \"=\" found at position 1");
  EXPECT_EQ(ProblemOf("N !"), "Unexpected token \"! \" found at position 2.");
  EXPECT_EQ(ProblemOf("\"abc"), "Unterminated string starting at position 0.");
  EXPECT_EQ(ProblemOf("(1"), "Missing parenthesis");
}

TEST(ExpressionTokens, ControlCharactersAreBlanksOrRefused) {
  EXPECT_EQ(All("1\t+\n2").size(), 4u);
  EXPECT_EQ(ProblemOf("1\x1b"), "Invalid non printable characters found in expression/identifer!");
}

TEST(ExpressionTokens, NumbersAreReadAsStreamsReadThem) {
  EXPECT_EQ(All("1e3")[0].number, 1000.0);
  EXPECT_EQ(All("5.")[0].number, 5.0);
  EXPECT_EQ(All("1e")[0].kind, TokenKind::kName);          // not a number: a name, unknown later
  EXPECT_EQ(ExpressionTokens("0x10").Next().number, 0.0);  // no hexadecimal: 0, then the name x10
  EXPECT_EQ(ProblemOf("0x10"), "Unexpected variable \"x10\" found at position 1");
}

TEST(ExpressionTokens, LongExpressionsAreRefused) {
  EXPECT_NO_THROW(ExpressionTokens(std::string(19999, '1')));
  EXPECT_THROW(ExpressionTokens(std::string(20000, '1')), ExpressionProblem);
}

}  // namespace
}  // namespace tuner
