// Which names a template may give its parameters and sizes. A parameter reaches the source as a
// macro (-DTILE=32) and both are variables of the expressions, so a name must be an identifier that
// is no C, C++ or CUDA keyword, no built-in type or variable, and no expression function: `int`
// would break the compile, `sin` would hide the function.
#pragma once

#include <string>

namespace tuner {

// Letters, digits and '_', not starting with a digit.
bool IsIdentifier(const std::string& name);

// Why `name` may not be a parameter or size ("a C++ keyword", "an expression function", ...), or ""
// when it may. The one list of such names.
std::string WhyReserved(const std::string& name);

}  // namespace tuner
