// The syntax of the Python-like expressions of the community's T1 format: Python's grammar for
// expressions, from the conditional expression down to numbers, names, calls, subscripts and
// lists, as a tree. What the tree means is python_expression's concern.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tuner {

// A construct the syntax or its translation does not take, or a malformed expression. The message
// quotes neither the expression nor where it came from: the caller names both.
struct PythonExpressionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PythonNode {
  enum Kind {
    kNumber,
    kName,
    kProblemSize,
    kCall,
    kNegate,
    kBinary,
    kAnd,
    kOr,
    kNot,
    kCompare,
    kIn,
    kConditional,
    kSequence,
    kComprehension
  };
  Kind kind = kNumber;
  std::string text;  // the operator ("//", "not in"), name or function; a sequence's or comprehension's brackets
  double value = 0;  // kNumber; kProblemSize: the index
  int height = 1;    // the longest path down to a leaf, bounded by kMaxPythonDepth
  // A call's arguments, a sequence's items; a comprehension's variable (a kName), element, iterable
  // and its conditions.
  std::vector<std::shared_ptr<const PythonNode>> children;
};
using PythonNodePtr = std::shared_ptr<const PythonNode>;

// How deep an expression may nest (parentheses, calls, unary operators, and a chain of binary
// operators such as 10,000 `and`s, each a level): Python's own parser stops at 200 parentheses, and a
// bound keeps the parser, the translation and the evaluation off the end of the stack.
constexpr int kMaxPythonDepth = 200;

// `a < b < c` is parsed as `a < b and b < c`; True and False as the numbers 1 and 0;
// `[x for i in r if c]` (one `for`, any number of `if`s; also as the one argument of a call) as a
// kComprehension. Throws PythonExpressionError.
PythonNodePtr ParsePython(const std::string& text);

PythonNodePtr PythonNumber(double value);

}  // namespace tuner
