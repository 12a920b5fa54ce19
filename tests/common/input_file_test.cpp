#include "common/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "base/errors.h"
#include "db_test_util.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;

TEST(InputFile, ReadsAWholeRegularFileWithinItsBound) {
  TempDir dir;
  std::ofstream(dir.File("a.txt")) << "hello\n";
  EXPECT_EQ(ReadInputFile(dir.File("a.txt"), 100, "the file"), "hello\n");
  EXPECT_THROW(ReadInputFile(dir.File("a.txt"), 3, "the file"), UsageError);
  EXPECT_THROW(ReadInputFile(dir.File("."), 100, "the file"), UsageError);
  ASSERT_EQ(mkfifo(dir.File("fifo").c_str(), 0600), 0);
  EXPECT_THROW(ReadInputFile(dir.File("fifo"), 100, "the file"), UsageError);  // at once, no writer awaited
}

// Opened part by part from the folder's descriptor, no link followed: what is read is beneath it.
TEST(InputFile, InsideAFolderNoLinkIsFollowedAndNothingLeavesIt) {
  TempDir dir, elsewhere;
  fs::create_directories(dir.File("sub/deeper"));
  std::ofstream(dir.File("sub/deeper/k.cu")) << "kernel\n";
  std::ofstream(elsewhere.File("secret")) << "secret\n";
  EXPECT_EQ(ReadInputFileInside(dir.File(""), "sub/deeper/k.cu", 100, "the kernel"), "kernel\n");
  EXPECT_EQ(ReadInputFileInside(dir.File(""), "./sub/./deeper/k.cu", 100, "the kernel"), "kernel\n");
  fs::create_symlink(elsewhere.File("secret"), dir.File("link"));
  fs::create_symlink(dir.File("sub/deeper/k.cu"), dir.File("inside_link"));
  fs::create_directory_symlink(elsewhere.File(""), dir.File("sub/folder_link"));
  for (const char* relative : {"link", "inside_link", "sub/folder_link/secret"}) {
    errno = 0;
    EXPECT_EQ(OpenInside(dir.File(""), relative), -1) << relative;
    EXPECT_TRUE(errno == ELOOP || errno == ENOTDIR) << relative << ": " << errno;
    try {
      ReadInputFileInside(dir.File(""), relative, 100, "the kernel");
      ADD_FAILURE() << relative << " was read";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).find("secret\n"), std::string::npos);
    }
  }
  for (const std::string& relative : {std::string("../") + fs::path(elsewhere.File("secret")).filename().string(),
                                      elsewhere.File("secret"), std::string("sub/../../x")}) {
    errno = 0;
    EXPECT_EQ(OpenInside(dir.File("sub"), relative), -1) << relative;
    EXPECT_EQ(errno, EXDEV) << relative;
  }
}

}  // namespace
}  // namespace tuner
