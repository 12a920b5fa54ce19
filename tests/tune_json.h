// `tuner tune ARGS --json` into a fresh database and compile cache in `dir`, for the GPU tests that
// tune shipped templates end to end: the parsed output, or an empty object (and a failure) when the
// command did not exit 0.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "db_test_util.h"

namespace tuner::testing {

inline nlohmann::json TuneJson(const db::testing::TempDir& dir, const std::string& args) {
  const auto r = RunTuner("tune " + args + " --json --db " + dir.File("t.db"), "XDG_CACHE_HOME=" + dir.File("cache"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

}  // namespace tuner::testing
