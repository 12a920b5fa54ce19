// Constant Python values, computed here with Python's semantics (never by a Python interpreter):
// the value lists of T1 parameters ("[1, 2, 4] + list(range(32, 1024+1, 32))",
// "[2**i for i in range(0, 6)]") and the constant lists on the right of `in` in a condition.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "exchange/python_syntax.h"

namespace tuner {

// A sequence and its Python type, which decides what `+` may join (a list to a list, a tuple to a tuple).
struct PythonSequence {
  enum Type { kList, kTuple, kRange, kGenerator } type = kList;
  std::vector<double> items;
};

// The values of names bound by the comprehensions around an expression.
using PythonBindings = std::map<std::string, double>;

// A list, tuple, range(...), list(...), tuple(...), comprehension or `+` of them, with no more than
// `max_values` items (and common/input_limits' kListValues) in any of them, in at most kEvaluatorSteps. Throws
// PythonExpressionError for anything else, a name not bound, a division by zero, or a number beyond 2^53 (where doubles
// stop being exact).
PythonSequence EvaluatePythonSequence(const PythonNodePtr& node, const PythonBindings& bindings,
                                      std::size_t max_values);

// The whole numbers of a value list. Throws PythonExpressionError as EvaluatePythonSequence does,
// and for a value that is not a whole number.
std::vector<long long> EvaluatePythonIntegerList(const std::string& text, std::size_t max_values);

}  // namespace tuner
