#include "expression/expression_tokens.h"

#include <locale>
#include <sstream>

namespace tuner {

namespace {

// What may not come next (muparser's syntax flags).
enum : unsigned {
  kNoOpen = 1u << 0,
  kNoClose = 1u << 1,
  kNoValue = 1u << 2,
  kNoName = 1u << 3,
  kNoComma = 1u << 4,
  kNoFunction = 1u << 5,
  kNoOperator = 1u << 6,
  kNoPrefix = 1u << 8,
  kNoEnd = 1u << 9,
  kNoString = 1u << 10,
  kNoAssign = 1u << 11,  // a lone `=`, which is no operator but has its own message
  kNoIf = 1u << 12,
  kNoElse = 1u << 13,
  kNoAny = ~0u,
};
constexpr unsigned kAtStart = kNoOperator | kNoClose | kNoAssign | kNoIf | kNoElse | kNoComma;
constexpr unsigned kAfterValue = kNoValue | kNoName | kNoFunction | kNoOpen | kNoPrefix | kNoString | kNoAssign;
constexpr unsigned kAfterConditional = kNoClose | kNoEnd | kNoOperator | kNoIf | kNoElse | kNoString;
constexpr std::size_t kLongestExpression = 20000;
constexpr const char* kNameCharacters = "0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

[[noreturn]] void Fail(const std::string& problem) { throw ExpressionProblem(problem); }

std::string At(int position) { return " at position " + std::to_string(position); }

[[noreturn]] void Unexpected(const std::string& what, const std::string& token, int position) {
  Fail("Unexpected " + what + " \"" + token + "\" found" + At(position));
}

}  // namespace

ExpressionTokens::ExpressionTokens(const std::string& expression) : text_(expression + " "), allowed_(kAtStart) {
  if (expression.size() >= kLongestExpression) Fail("Expression too long.");
}

ExpressionToken ExpressionTokens::Next() {
  SkipBlanks();
  ExpressionToken token;
  if (ReadEnd(token) || ReadBinaryOperator(token) || ReadFunction(token) || ReadPunctuation(token) ||
      ReadComma(token) || ReadConstant(token) || ReadNumber(token) || ReadName(token) || ReadString(token)) {
    last_ = token.kind;
    return token;
  }
  Fail("Unexpected token \"" + std::string(Rest()) + "\" found" + At(position_) + ".");
}

// Control characters up to a blank are blanks, except 14 to 31, which are refused.
void ExpressionTokens::SkipBlanks() {
  while (text_[position_] > 0 && text_[position_] <= 0x20) {
    if (text_[position_] >= 14 && text_[position_] <= 31)
      Fail("Invalid non printable characters found in expression/identifer!");
    ++position_;
  }
}

// The end of the text, or a NUL character within it.
bool ExpressionTokens::ReadEnd(ExpressionToken& token) {
  if (*Rest() != '\0') return false;
  if (allowed_ & kNoEnd) Fail("Unexpected end of expression" + At(position_));
  if (open_parentheses_ > 0) Fail("Missing parenthesis");
  allowed_ = 0;
  token.kind = TokenKind::kEnd;
  return true;
}

// Where no binary operator may stand, a `-` or `+` is a sign.
bool ExpressionTokens::ReadBinaryOperator(ExpressionToken& token) {
  if (!MatchBinaryOperator(Rest(), token.operation, token.text)) return false;
  if (allowed_ & kNoOperator) return ReadPrefix(token);
  position_ += static_cast<int>(token.text.size());
  allowed_ = kNoClose | kNoOperator | kNoComma | kNoEnd | kNoAssign;
  token.kind = TokenKind::kBinary;
  return true;
}

bool ExpressionTokens::ReadPrefix(ExpressionToken& token) {
  const char sign = *Rest();
  if (sign != '-' && sign != '+') return false;
  token.kind = TokenKind::kPrefix;
  token.text = std::string(1, sign);
  token.operation = sign == '-' ? Operation::kNegate : Operation::kConstant;
  ++position_;
  if (allowed_ & kNoPrefix) Fail("Unexpected operator \"" + token.text + "\" found" + At(position_));
  allowed_ = kNoPrefix | kNoOperator | kNoClose | kNoString | kNoAssign | kNoComma;
  return true;
}

// A function's name directly followed by `(`; otherwise the name is a variable's.
bool ExpressionTokens::ReadFunction(ExpressionToken& token) {
  const std::string name = NameAt(position_);
  if (name.empty() || text_[position_ + name.size()] != '(') return false;
  token.function = FindExpressionFunction(name);
  if (!token.function) return false;
  if (allowed_ & kNoFunction) Fail("Unexpected function \"" + name + "\"" + At(position_));
  position_ += static_cast<int>(name.size());
  token.kind = TokenKind::kFunction;
  token.text = name;
  allowed_ = kNoAny ^ kNoOpen;
  return true;
}

bool ExpressionTokens::ReadPunctuation(ExpressionToken& token) {
  const char c = *Rest();
  if (c == '=' && (allowed_ & kNoAssign)) Fail("Unexpected operator \"=\" found" + At(position_));
  if (c == '(') {
    if (allowed_ & kNoOpen) Fail("Unexpected parenthesis \"(\"" + At(position_));
    allowed_ = kNoOperator | kNoEnd | kNoComma | kNoAssign | kNoIf | kNoElse |
               (last_ == TokenKind::kFunction ? 0u : unsigned{kNoClose});
    ++open_parentheses_;
    token.kind = TokenKind::kOpen;
  } else if (c == ')') {
    if ((allowed_ & kNoClose) || open_parentheses_ == 0) Fail("Unexpected parenthesis \")\"" + At(position_));
    allowed_ = kNoOpen | kNoName | kNoValue | kNoFunction | kNoPrefix | kNoString | kNoAssign;
    --open_parentheses_;
    token.kind = TokenKind::kClose;
  } else if (c == '?' || c == ':') {
    if (allowed_ & (c == '?' ? kNoIf : kNoElse))
      Fail(std::string("The \"") + c + "\" operator must be preceded by a closing bracket.");
    allowed_ = kAfterConditional;
    token.kind = c == '?' ? TokenKind::kIf : TokenKind::kElse;
  } else {
    return false;
  }
  token.text = std::string(1, c);
  ++position_;
  return true;
}

bool ExpressionTokens::ReadComma(ExpressionToken& token) {
  if (*Rest() != ',') return false;
  if (allowed_ & kNoComma) Fail("Unexpected argument separator" + At(position_));
  allowed_ = kNoClose | kNoOperator | kNoEnd | kNoComma | kNoAssign;
  ++position_;
  token.kind = TokenKind::kComma;
  token.text = ",";
  return true;
}

bool ExpressionTokens::ReadConstant(ExpressionToken& token) {
  const std::string name = NameAt(position_);
  if (name.empty() || !FindExpressionConstant(name, token.number)) return false;
  position_ += static_cast<int>(name.size());
  if (allowed_ & kNoValue) Unexpected("value", name, position_ - static_cast<int>(name.size()));
  token.kind = TokenKind::kNumber;
  token.text = name;
  allowed_ = kAfterValue;
  return true;
}

// A number as C++ streams read one in the "C" locale (`2`, `.5`, `1e-3`); one that runs to the end
// of the text is not taken (muparser's rule, which only a NUL within the text can meet).
bool ExpressionTokens::ReadNumber(ExpressionToken& token) {
  std::istringstream stream(Rest());
  stream.imbue(std::locale::classic());
  double value = 0;
  stream >> value;
  const std::istringstream::pos_type end = stream.tellg();
  if (end == std::istringstream::pos_type(-1)) return false;
  const int start = position_;
  position_ += static_cast<int>(end);
  token.text = text_.substr(start, position_ - start);
  if (allowed_ & kNoValue) Unexpected("value", token.text, start);
  token.kind = TokenKind::kNumber;
  token.number = value;
  allowed_ = kAfterValue;
  return true;
}

// A variable's name; whether the expression may use it is decided once the whole text parses.
bool ExpressionTokens::ReadName(ExpressionToken& token) {
  const std::string name = NameAt(position_);
  if (name.empty()) return false;
  if (allowed_ & kNoName) Unexpected("variable", name, position_);
  position_ += static_cast<int>(name.size());
  token.kind = TokenKind::kName;
  token.text = name;
  allowed_ = kAfterValue & ~kNoAssign;
  return true;
}

// A string in double quotes (`\"` inside): never valid in an expression, but refused with the
// message muparser gave where it stands.
bool ExpressionTokens::ReadString(ExpressionToken& token) {
  if (*Rest() != '"') return false;
  std::string contents;
  std::size_t i = position_ + 1;
  for (; i < text_.size() && text_[i] != '"'; ++i) {
    if (text_[i] == '\\' && i + 1 < text_.size() && text_[i + 1] == '"') ++i;
    contents += text_[i];
  }
  if (i >= text_.size()) Fail("Unterminated string starting" + At(position_) + ".");
  if (allowed_ & kNoString) Fail("Unexpected string token found" + At(position_) + ".");
  position_ = static_cast<int>(i) + 1;
  token.kind = TokenKind::kString;
  token.text = contents;
  allowed_ = kNoAny ^ (kNoComma | kNoClose | kNoOperator | kNoEnd);
  return true;
}

std::string ExpressionTokens::NameAt(int position) const {
  const std::size_t end = text_.find_first_not_of(kNameCharacters, position);
  return text_.substr(position, end - position);
}

}  // namespace tuner
