// `tuner tune ARGS --json` into a fresh database and compile cache in `dir`, for the GPU tests that
// tune shipped templates end to end: the parsed output, or an empty object (and a failure) when the
// command did not exit 0; and what such a test checks of every candidate.
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

// Every candidate of a tune's JSON output passed its check.
inline void ExpectEveryCandidateOk(const nlohmann::json& doc) {
  ASSERT_TRUE(doc.contains("candidates"));
  EXPECT_GT(doc.at("candidates").size(), 0u);
  for (const auto& c : doc.at("candidates")) EXPECT_EQ(c.at("status"), "ok") << c.dump();
}

}  // namespace tuner::testing
