// The errors the query library throws, which the tool throws too; the tool maps each to one exit
// code at its edge (common/errors.h).
#pragma once

#include <stdexcept>
#include <string>

namespace tuner {

// Bad command line or bad input file: the message names what is wrong. Exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The database file is corrupt, foreign or from a newer version. Exit 4; the file is left untouched.
struct BadDatabaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tuner
