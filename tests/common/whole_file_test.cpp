#include "common/whole_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "cli_runner.h"
#include "db_test_util.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using testing::ReadFileText;

TEST(WholeFile, WritesReplacesAndCreatesFolders) {
  TempDir dir;
  const std::string path = dir.File("a/b/out.json");
  WriteWholeFile(path, "first");
  EXPECT_EQ(ReadFileText(path), "first");
  WriteWholeFile(path, "second");
  EXPECT_EQ(ReadFileText(path), "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.File("a/b")), fs::directory_iterator()), 1);  // no temporary left
}

TEST(WholeFile, AFailureLeavesNothingBehind) {
  TempDir dir;
  fs::create_directories(dir.File("taken/inner"));  // a folder where the file should go
  EXPECT_THROW(WriteWholeFile(dir.File("taken"), "text"), std::runtime_error);
  EXPECT_TRUE(fs::is_directory(dir.File("taken")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.File("")), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace tuner
