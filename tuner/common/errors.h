// Error types thrown inside the tool; each maps to one exit code at the edge (main / Run<Name>).
#pragma once

#include <stdexcept>
#include <string>

namespace tuner {

// Exit codes: the contract in DESIGN.md.
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

// A command needs a GPU and none is usable. Exit 3.
struct NoGpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The database file is corrupt, foreign or from a newer version. Exit 4; the file is left untouched.
struct BadDatabaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tuner
