#include "common/whole_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

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

// The temporary was PATH.tmp-PID, opened following links with O_TRUNC, so a link planted
// there made the writer overwrite the file it points to.
TEST(WholeFile, ALinkPlantedAtTheOldTemporaryNameIsNotFollowed) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("victim"), "precious");
  fs::create_symlink(dir.File("victim"), dir.File("out.html.tmp-" + std::to_string(getpid())));
  WriteWholeFile(dir.File("out.html"), "report");
  EXPECT_EQ(ReadFileText(dir.File("victim")), "precious");
  EXPECT_EQ(ReadFileText(dir.File("out.html")), "report");
}

// Writing a temporary and renaming it over /dev/null (as root) replaced the device with a
// regular file. A FIFO or character device is written directly and stays what it was.
TEST(WholeFile, AFifoIsWrittenDirectlyAndStaysAFifo) {
  TempDir dir;
  const std::string fifo = dir.File("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // so that the writer's open does not wait
  ASSERT_GE(reader, 0);
  WriteWholeFile(fifo, "through the pipe");
  char buffer[64] = {};
  EXPECT_EQ(read(reader, buffer, sizeof buffer - 1), 16);
  EXPECT_STREQ(buffer, "through the pipe");
  close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(WholeFile, ACharacterDeviceStaysADevice) {
  TempDir dir;
  const std::string null = dir.File("null");
  if (mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "cannot make a device node here";
  WriteWholeFile(null, "discarded");
  EXPECT_TRUE(fs::is_character_file(null));
  WriteWholeFile("/dev/null", "discarded");  // what `tuner report -o /dev/null` does
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(WholeFile, ASymbolicLinkIsWrittenThroughAndStays) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("real.txt"), "old");
  fs::create_symlink("real.txt", dir.File("link.txt"));
  WriteWholeFile(dir.File("link.txt"), "new");
  EXPECT_TRUE(fs::is_symlink(dir.File("link.txt")));
  EXPECT_EQ(ReadFileText(dir.File("real.txt")), "new");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.File("")), fs::directory_iterator()), 2);
}

TEST(WholeFile, APrivateFileStaysPrivate) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("secret"), "old");
  fs::permissions(dir.File("secret"), fs::perms::owner_read | fs::perms::owner_write);
  WriteWholeFile(dir.File("secret"), "new");
  EXPECT_EQ(fs::status(dir.File("secret")).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
}

TEST(WholeFile, AnUncommittedWriterLeavesTheOldFileAndNoTemporary) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("out"), "old");
  {
    WholeFileWriter writer(dir.File("out"));
    writer.Append("half of it");
  }  // an exception would leave here before Commit
  EXPECT_EQ(ReadFileText(dir.File("out")), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.File("")), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace tuner
