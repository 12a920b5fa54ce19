// The tool's error types and exit codes. Each error maps to one exit code at the edge (main /
// Run<Name>); the query library throws UsageError and BadDatabaseError too.
#pragma once

#include <stdexcept>
#include <string>

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

// Bad command line or bad input file: the message names what is wrong. Exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The database file is corrupt, foreign or from a newer version. Exit 4; the file is left untouched.
struct BadDatabaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A command needs a GPU and none is usable. Exit 3.
struct NoGpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tuner
