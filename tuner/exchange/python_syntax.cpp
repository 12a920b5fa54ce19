#include "exchange/python_syntax.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/input_limits.h"

namespace tuner {

namespace {

using Node = PythonNode;
using NodePtr = PythonNodePtr;

[[noreturn]] void Fail(const std::string& problem) { throw PythonExpressionError(problem); }

// ---- tokens ----------------------------------------------------------------------------------

struct Token {
  enum Type { kNumber, kName, kOperator, kString, kEnd } type = kEnd;
  std::string text;
};

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::size_t NumberEnd(const std::string& s, std::size_t i) {
  if (s.compare(i, 2, "0x") == 0 || s.compare(i, 2, "0X") == 0) {
    i += 2;
    while (i < s.size() && (std::isxdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    return i;
  }
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.')) ++i;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  }
  return i;
}

std::vector<Token> Tokenize(const std::string& s) {
  static const char* const kTwoCharacterOperators[] = {"**", "//", "==", "!=", "<=", ">=", "<<", ">>", "<>"};
  std::vector<Token> tokens;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      const std::size_t end = NumberEnd(s, i);
      tokens.push_back({Token::kNumber, s.substr(i, end - i)});
      i = end;
    } else if (IsNameStart(c)) {
      std::size_t end = i;
      while (end < s.size() && IsNameChar(s[end])) ++end;
      tokens.push_back({Token::kName, s.substr(i, end - i)});
      i = end;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = s.find(c, i + 1);
      if (end == std::string::npos) Fail("a string is not closed");
      tokens.push_back({Token::kString, s.substr(i, end + 1 - i)});
      i = end + 1;
    } else {
      std::string op(1, c);
      for (const char* two : kTwoCharacterOperators)
        if (s.compare(i, 2, two) == 0) op = two;
      if (std::string("+-*/%<>=!()[]{},&|^~.:@").find(c) == std::string::npos)
        Fail(std::string("the character '") + c + "' is not Python syntax");
      if (op == "=" || op == "!") Fail("'" + op + "' is not an operator (comparisons are '==' and '!=')");
      if (op == "<>") Fail("'<>' is not Python 3 syntax; write '!='");
      tokens.push_back({Token::kOperator, op});
      i += op.size();
    }
  }
  tokens.push_back({Token::kEnd, ""});
  return tokens;
}

// ---- syntax tree -----------------------------------------------------------------------------

[[noreturn]] void FailTooDeep() {
  Fail("the expression nests more than " + std::to_string(kMaxPythonDepth) +
       " levels deep (parentheses, calls, and operators in a row such as 'and' each count); split it into "
       "several conditions");
}

NodePtr Make(Node::Kind kind, std::string text, std::vector<NodePtr> children = {}) {
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->text = std::move(text);
  for (const NodePtr& child : children) node->height = std::max(node->height, child->height + 1);
  if (node->height > kMaxPythonDepth) FailTooDeep();
  node->children = std::move(children);
  return node;
}

// Python's digitpart: digits with single underscores between them.
bool IsDigitPart(const std::string& text, bool hex) {
  if (text.empty() || text.front() == '_' || text.back() == '_') return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '_' ? text[i + 1] == '_' : !(hex ? std::isxdigit(c) : std::isdigit(c))) return false;
  }
  return true;
}

// A number as Python writes one: 0x_ff, 1_000, 00, 1.5e-3, .5, 1. (not 010, 1__0, 10_ or 1._5).
bool IsPythonNumber(const std::string& text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    return IsDigitPart(text.substr(text[2] == '_' ? 3 : 2), true);
  const std::size_t e = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, e);
  if (e != std::string::npos) {
    const std::size_t digits = e + 1 + (e + 1 < text.size() && (text[e + 1] == '+' || text[e + 1] == '-'));
    if (!IsDigitPart(text.substr(digits), false)) return false;
  }
  const std::size_t point = mantissa.find('.');
  if (point == std::string::npos)  // a decimal integer has no leading zero, unless it is all zeros
    return IsDigitPart(mantissa, false) &&
           (e != std::string::npos || mantissa[0] != '0' || mantissa.find_first_not_of("0_") == std::string::npos);
  const std::string whole = mantissa.substr(0, point), fraction = mantissa.substr(point + 1);
  return (!whole.empty() || !fraction.empty()) && (whole.empty() || IsDigitPart(whole, false)) &&
         (fraction.empty() || IsDigitPart(fraction, false));
}

double ParseNumber(const std::string& text) {
  if (!IsPythonNumber(text))
    Fail("'" + Excerpt(text) +
         "' is not a number as Python writes one (no leading zeros in a whole number, '_' only between digits)");
  std::string digits;
  for (char c : text)
    if (c != '_') digits += c;
  const bool hex = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X');
  char* end = nullptr;
  const double value =
      hex ? static_cast<double>(std::strtoull(digits.c_str() + 2, &end, 16)) : std::strtod(digits.c_str(), &end);
  if (*end != '\0') Fail("'" + Excerpt(text) + "' is not a number");
  return value;
}

// Python's grammar for expressions, from the conditional expression down to atoms.
class Parser {
 public:
  explicit Parser(const std::string& text) : tokens_(Tokenize(text)) {}

  NodePtr ParseAll() {
    if (Peek().type == Token::kEnd) Fail("the expression is empty");
    NodePtr node = Conditional();
    if (Peek().type != Token::kEnd) Fail("unexpected '" + Excerpt(Peek().text) + "'" + Hint(Peek().text));
    return node;
  }

 private:
  const Token& Peek() const { return tokens_[position_]; }
  bool PeekName(const char* name) const { return Peek().type == Token::kName && Peek().text == name; }
  bool PeekOperator(const char* op) const { return Peek().type == Token::kOperator && Peek().text == op; }
  Token Next() { return tokens_[position_++]; }
  void Expect(const char* op) {
    if (!PeekOperator(op))
      Fail(std::string("expected '") + op + "'" +
           (Peek().type == Token::kEnd ? " at the end" : " before '" + Excerpt(Peek().text) + "'"));
    ++position_;
  }

  static std::string Hint(const std::string& token) {
    return token == "for" ? ": a comprehension is written in brackets, [x for i in range(n)]" : "";
  }

  // A level of parentheses is three of the parser's (Conditional, Not, Factor) and no level of the tree.
  static constexpr int kMaxRecursion = 3 * kMaxPythonDepth;

  // Counts one level of the parser's recursion for as long as it lives.
  class Level {
   public:
    explicit Level(int& depth) : depth_(depth) {
      if (++depth_ > kMaxRecursion) FailTooDeep();
    }
    ~Level() { --depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    int& depth_;
  };

  NodePtr Conditional() {
    const Level level(depth_);
    if (PeekName("lambda")) Fail("'lambda' is not supported");
    NodePtr body = Or();
    if (!PeekName("if")) return body;
    Next();
    NodePtr test = Or();
    if (!PeekName("else")) Fail("'if' without 'else'");
    Next();
    return Make(Node::kConditional, "", {test, body, Conditional()});
  }

  NodePtr Or() {
    NodePtr left = And();
    while (PeekName("or")) {
      Next();
      left = Make(Node::kOr, "or", {left, And()});
    }
    return left;
  }

  NodePtr And() {
    NodePtr left = Not();
    while (PeekName("and")) {
      Next();
      left = Make(Node::kAnd, "and", {left, Not()});
    }
    return left;
  }

  NodePtr Not() {
    const Level level(depth_);
    if (!PeekName("not")) return Comparison();
    Next();
    return Make(Node::kNot, "not", {Not()});
  }

  // a < b <= c is a < b and b <= c, as in Python.
  NodePtr Comparison() {
    NodePtr left = Bitwise();
    NodePtr chain;
    for (;;) {
      std::string op;
      bool in = false, negated = false;
      if (Peek().type == Token::kOperator && (Peek().text == "<" || Peek().text == ">" || Peek().text == "==" ||
                                              Peek().text == "!=" || Peek().text == "<=" || Peek().text == ">=")) {
        op = Next().text;
      } else if (PeekName("in")) {
        Next();
        in = true;
      } else if (PeekName("not") && tokens_[position_ + 1].type == Token::kName &&
                 tokens_[position_ + 1].text == "in") {
        position_ += 2;
        in = negated = true;
      } else if (PeekName("is")) {
        Fail("'is' is not supported; compare values with '==' or '!='");
      } else {
        break;
      }
      NodePtr right = Bitwise();
      NodePtr comparison =
          in ? Make(Node::kIn, negated ? "not in" : "in", {left, right}) : Make(Node::kCompare, op, {left, right});
      chain = chain ? Make(Node::kAnd, "and", {chain, comparison}) : comparison;
      left = right;
    }
    return chain ? chain : left;
  }

  NodePtr Bitwise() {
    NodePtr node = Sum();
    for (const char* op : {"|", "&", "^", "<<", ">>"})
      if (PeekOperator(op))
        Fail(std::string("the bitwise operator '") + op + "' has no counterpart in the template syntax" +
             (std::string(op) == "^" ? " (where '^' is a power; Python's power is '**')" : ""));
    return node;
  }

  NodePtr Sum() {
    NodePtr left = Term();
    while (PeekOperator("+") || PeekOperator("-")) {
      const std::string op = Next().text;
      left = Make(Node::kBinary, op, {left, Term()});
    }
    return left;
  }

  NodePtr Term() {
    NodePtr left = Factor();
    while (PeekOperator("*") || PeekOperator("/") || PeekOperator("//") || PeekOperator("%") || PeekOperator("@")) {
      const std::string op = Next().text;
      if (op == "@") Fail("the matrix product '@' is not supported");
      left = Make(Node::kBinary, op, {left, Factor()});
    }
    return left;
  }

  NodePtr Factor() {
    const Level level(depth_);
    if (PeekOperator("-")) {
      Next();
      return Make(Node::kNegate, "-", {Factor()});
    }
    if (PeekOperator("+")) {
      Next();
      return Factor();
    }
    if (PeekOperator("~")) Fail("the bitwise operator '~' has no counterpart in the template syntax");
    return Power();
  }

  // ** binds tighter than a unary minus on its left and looser than one on its right: -2**-1.
  NodePtr Power() {
    NodePtr base = Primary();
    if (!PeekOperator("**")) return base;
    Next();
    return Make(Node::kBinary, "**", {base, Factor()});
  }

  NodePtr Primary() {
    NodePtr node = Atom();
    for (;;) {
      if (PeekOperator("(")) {
        if (node->kind != Node::kName) Fail("only a function can be called");
        Next();
        std::vector<NodePtr> args = Items(")", "()");
        node = Make(Node::kCall, node->text, std::move(args));
      } else if (PeekOperator("[")) {
        Next();
        NodePtr index = Conditional();
        Expect("]");
        if (node->kind != Node::kName || node->text != "ProblemSize")
          Fail("indexing ('" + Excerpt(node->text) + "[...]') is supported only as ProblemSize[i]");
        if (index->kind != Node::kNumber || index->value != std::floor(index->value) || index->value < 0)
          Fail("ProblemSize[...] takes a whole number: 0, 1 or 2");
        auto size = std::make_shared<Node>();
        size->kind = Node::kProblemSize;
        size->value = index->value;
        node = size;
      } else if (PeekOperator(".")) {
        Next();
        Fail("attributes ('" + Excerpt(node->text) + "." + Excerpt(Peek().text) + "') are not supported");
      } else {
        return node;
      }
    }
  }

  // Expressions separated by commas, up to `close` (a trailing comma is allowed). A first item
  // followed by `for` makes a comprehension of kind `comprehension` ("[]", "()"), returned as the
  // only item, with *is_comprehension set; nullptr where none may be.
  std::vector<NodePtr> Items(const char* close, const char* comprehension = nullptr, bool* is_comprehension = nullptr) {
    std::vector<NodePtr> items;
    while (!PeekOperator(close)) {
      items.push_back(Conditional());
      if (PeekName("for")) {
        if (!comprehension) Fail("set and dict comprehensions are not supported; write a list, [x for i in r]");
        if (items.size() != 1) Fail("a comprehension must be the only item: write [x for i in r]");
        items[0] = Comprehension(items[0], comprehension);
        if (is_comprehension) *is_comprehension = true;
        break;
      }
      if (!PeekOperator(",")) break;
      Next();
    }
    Expect(close);
    return items;
  }

  // The rest of `[element for name in iterable if condition ...]`, from the `for`: one `for` over
  // one name, as Python writes it (the iterable and conditions are or-expressions).
  NodePtr Comprehension(NodePtr element, const char* brackets) {
    Next();  // for
    const Token target = Next();
    if (target.type != Token::kName || IsKeyword(target.text))
      Fail("a comprehension's 'for' takes a name, as in [2**i for i in range(6)]");
    if (PeekOperator(",")) Fail("a comprehension's 'for' over several names is not supported; use one name");
    if (!PeekName("in")) Fail("expected 'in' after 'for " + Excerpt(target.text) + "'");
    Next();
    std::vector<NodePtr> children = {Make(Node::kName, target.text), element, Or()};
    while (PeekName("if")) {
      Next();
      children.push_back(Or());
    }
    if (PeekName("for")) Fail("a comprehension with more than one 'for' is not supported");
    return Make(Node::kComprehension, brackets, std::move(children));
  }

  static bool IsKeyword(const std::string& name) {
    for (const char* keyword : {"and", "or", "not", "in", "is", "if", "else", "for", "lambda", "True", "False", "None"})
      if (name == keyword) return true;
    return false;
  }

  NodePtr Atom() {
    const Token token = Next();
    switch (token.type) {
      case Token::kNumber:
        return PythonNumber(ParseNumber(token.text));
      case Token::kString:
        Fail("strings (" + Excerpt(token.text) + ") are not supported: tuner's parameters are whole numbers");
      case Token::kEnd:
        Fail("the expression ends too early");
      case Token::kName:
        if (token.text == "True") return PythonNumber(1);
        if (token.text == "False") return PythonNumber(0);
        if (token.text == "None") Fail("'None' is not supported");
        if (IsKeyword(token.text)) Fail("'" + token.text + "' where a value belongs");
        return Make(Node::kName, token.text);
      case Token::kOperator:
        break;
    }
    if (token.text == "(") {
      if (PeekOperator(")")) {
        Next();
        return Make(Node::kSequence, "()");
      }
      NodePtr first = Conditional();
      if (PeekOperator(")")) {
        Next();
        return first;
      }
      if (PeekName("for")) {
        NodePtr generator = Comprehension(first, "()");
        Expect(")");
        return generator;
      }
      if (!PeekOperator(",")) Expect(")");  // fails, naming the missing ')'
      Next();
      std::vector<NodePtr> items = Items(")");
      items.insert(items.begin(), first);
      return Make(Node::kSequence, "()", std::move(items));
    }
    if (token.text == "[") {
      bool is_comprehension = false;
      std::vector<NodePtr> items = Items("]", "[]", &is_comprehension);
      return is_comprehension ? items[0] : Make(Node::kSequence, "[]", std::move(items));
    }
    if (token.text == "{") return Make(Node::kSequence, "{}", Items("}"));
    Fail("unexpected '" + Excerpt(token.text) + "'");
  }

  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  int depth_ = 0;  // the parser's recursion, bounded as the tree's height is
};
}  // namespace

PythonNodePtr PythonNumber(double value) {
  auto node = std::make_shared<PythonNode>();
  node->value = value;
  return node;
}

PythonNodePtr ParsePython(const std::string& text) { return Parser(text).ParseAll(); }

}  // namespace tuner
