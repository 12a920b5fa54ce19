// The limits every reader of untrusted input keeps (T1 descriptions, Kernel Tuner caches, T4 files,
// `db import` lines, template descriptions and the values they compute), each with its default and
// the environment variable that raises or lowers it, listed once here. Past a limit a reader stops
// at once with a UsageError that names the limit and its variable (LimitExceeded).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tuner {

enum class InputLimit {
  kNestingDepth,      // lists and objects inside each other in one JSON document or line
  kInputBytes,        // a results file or an export, and the text a gzipped one inflates to
  kDescriptionBytes,  // a T1 description, a kernel source or a header it names
  kEntries,           // the items of one JSON list or object; the lines of one import
  kLineBytes,         // one line of a file read line by line
  kValueBytes,        // one JSON string (a name, a key, a value)
  kEvaluatorSteps,    // the operations and items one Python-like value list or condition takes
  kListValues,        // the items of one list a Python-like expression builds
  kCombinations,      // the parameter combinations one enumeration of a space tries
};

struct InputLimitInfo {
  InputLimit limit;
  const char* env_var;  // TUNER_LIMIT_...
  std::size_t default_value;
  const char* what;  // "levels of nesting": the unit the value counts
};

// Every limit, in the order of the enum (the documentation lists the same).
const std::vector<InputLimitInfo>& InputLimits();

// The limit's value: its variable when set, else its default. A variable that is not a whole number
// >= 1 is a UsageError naming it.
std::size_t LimitValue(InputLimit limit);

// "more than 64 levels of nesting (raise the limit with TUNER_LIMIT_DEPTH=N)": what a reader says
// after naming its input and place.
std::string LimitMessage(InputLimit limit);

// Throws UsageError "`where`: `LimitMessage(limit)`; nothing was changed".
[[noreturn]] void LimitExceeded(const std::string& where, InputLimit limit);

// `text` to quote in a message: at most about 200 characters, control characters escaped, and the
// length of what was left out said.
std::string Excerpt(const std::string& text);

}  // namespace tuner
