// The message of the UsageError `action` throws, "" when it throws none: what a test of a refusal
// compares, so that a test fails on a wrong message as well as on none.
#pragma once

#include <string>

#include "base/errors.h"

namespace tuner::testing {

template <typename Action>
std::string UsageRefusal(Action action) {
  try {
    action();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace tuner::testing
