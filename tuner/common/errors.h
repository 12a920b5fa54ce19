// Error types thrown inside the tool; each maps to one exit code at the edge (main / Run<Name>).
#pragma once

#include <stdexcept>
#include <string>

#include "db/query/errors.h"  // UsageError, BadDatabaseError: the query library throws them too

namespace tuner {

// Exit codes, a contract that scripts rely on: 0 success, 1 the work failed, 2 bad usage or bad
// input (the message names it; nothing is created or changed), 3 no usable GPU, 4 a bad database,
// 130 interrupted.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailed = 1,
  kExitUsage = 2,
  kExitNoGpu = 3,
  kExitBadDatabase = 4,
  kExitInterrupted = 130,
};

// A command needs a GPU and none is usable. Exit 3.
struct NoGpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tuner
