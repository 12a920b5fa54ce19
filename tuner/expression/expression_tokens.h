// The tokens of an expression, read one at a time, each checked against what may follow the one
// before it ("N N", "(+)", "sin 2" are refused where they stand). The rules, the order in which a
// token is recognised and the messages, with their positions, are muparser's, which this project
// used before: a description that loaded then loads now, and a bad one gets the same message.
#pragma once

#include <string>

#include "expression/expression_program.h"

namespace tuner {

enum class TokenKind { kEnd, kNumber, kName, kString, kFunction, kBinary, kPrefix, kOpen, kClose, kComma, kIf, kElse };

struct ExpressionToken {
  TokenKind kind = TokenKind::kEnd;
  std::string text;                            // as written: the name, the operator, the number
  double number = 0;                           // kNumber: a literal or a constant such as `_pi`
  Operation operation = Operation::kConstant;  // kBinary; kNegate for a prefix `-` (a prefix `+` does nothing)
  const ExpressionFunction* function = nullptr;
};

class ExpressionTokens {
 public:
  // Throws ExpressionProblem when the expression is too long to parse (20,000 characters or more).
  explicit ExpressionTokens(const std::string& expression);

  // The next token; throws ExpressionProblem for one that may not stand where it does.
  ExpressionToken Next();
  // Just past the last token read: where messages about it point.
  int position() const { return position_; }

 private:
  void SkipBlanks();
  bool ReadEnd(ExpressionToken& token);
  bool ReadBinaryOperator(ExpressionToken& token);
  bool ReadPrefix(ExpressionToken& token);
  bool ReadFunction(ExpressionToken& token);
  bool ReadPunctuation(ExpressionToken& token);
  bool ReadComma(ExpressionToken& token);
  bool ReadConstant(ExpressionToken& token);
  bool ReadNumber(ExpressionToken& token);
  bool ReadName(ExpressionToken& token);
  bool ReadString(ExpressionToken& token);
  std::string NameAt(int position) const;
  const char* Rest() const { return text_.c_str() + position_; }

  std::string text_;  // with a blank appended, as muparser had it: positions at the end count it
  int position_ = 0;
  unsigned allowed_;  // what may not come next, as a set of the flags in the .cpp
  int open_parentheses_ = 0;
  TokenKind last_ = TokenKind::kEnd;
};

}  // namespace tuner
