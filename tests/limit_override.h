// A limit of common/input_limits lowered (or raised) for one test through its environment variable,
// and put back when the test ends: a limit meant for gigabytes is tested with kilobytes.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include "common/input_limits.h"

namespace tuner::testing {

class LimitOverride {
 public:
  LimitOverride(InputLimit limit, const std::string& value) : name_(EnvVar(limit)) {
    if (const char* before = std::getenv(name_.c_str())) before_ = before;
    setenv(name_.c_str(), value.c_str(), 1);
  }
  ~LimitOverride() { before_ ? setenv(name_.c_str(), before_->c_str(), 1) : unsetenv(name_.c_str()); }
  LimitOverride(const LimitOverride&) = delete;
  LimitOverride& operator=(const LimitOverride&) = delete;

  static std::string EnvVar(InputLimit limit) { return InputLimits()[static_cast<std::size_t>(limit)].env_var; }

 private:
  std::string name_;
  std::optional<std::string> before_;
};

}  // namespace tuner::testing
