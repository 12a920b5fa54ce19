#include "base/default_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

namespace tuner {
namespace {

// Sets the variables for one test and restores them afterwards.
class Environment : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kNames) saved_[name] = std::getenv(name) ? std::getenv(name) : "\x01";
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_)
      value == "\x01" ? unsetenv(name.c_str()) : setenv(name.c_str(), value.c_str(), 1);
  }
  static constexpr const char* kNames[] = {"TUNER_DB", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"};
  std::map<std::string, std::string> saved_;
};

TEST_F(Environment, DatabasePathPrecedence) {
  setenv("HOME", "/home/u", 1);
  unsetenv("TUNER_DB");
  unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(ResolveDatabasePath(), "/home/u/.local/share/tuner/tuner.db");
  setenv("XDG_DATA_HOME", "relative/ignored", 1);  // XDG: relative paths are invalid
  EXPECT_EQ(ResolveDatabasePath(), "/home/u/.local/share/tuner/tuner.db");
  setenv("XDG_DATA_HOME", "/data", 1);
  EXPECT_EQ(ResolveDatabasePath(), "/data/tuner/tuner.db");
  setenv("TUNER_DB", "", 1);  // empty counts as unset
  EXPECT_EQ(ResolveDatabasePath(), "/data/tuner/tuner.db");
  setenv("TUNER_DB", "/env.db", 1);
  EXPECT_EQ(ResolveDatabasePath(), "/env.db");
  EXPECT_EQ(ResolveDatabasePath("cli.db"), "cli.db");
}

TEST_F(Environment, CacheDir) {
  setenv("HOME", "/home/u", 1);
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(CacheDir(), "/home/u/.cache/tuner");
  setenv("XDG_CACHE_HOME", "/c", 1);
  EXPECT_EQ(CacheDir(), "/c/tuner");
}

}  // namespace
}  // namespace tuner
