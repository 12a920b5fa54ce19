#include "common/line_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <stdexcept>
#include <vector>

#include "base/errors.h"
#include "db_test_util.h"

namespace tuner {
namespace {

using db::testing::TempDir;

std::vector<std::string> ReadLines(const std::string& path, std::size_t max_line_bytes = 0) {
  LineReader reader(path, max_line_bytes);
  std::vector<std::string> lines;
  for (std::string line; reader.Next(&line);) lines.push_back(line);
  return lines;
}

TEST(LineReader, SplitsLinesAcrossChunksAndKeepsALastLineWithoutNewline) {
  TempDir dir;
  const std::string long_line(200000, 'x');  // longer than one read
  db::testing::WriteBytes(dir.File("a"), "first\n\n" + long_line + "\nlast");
  EXPECT_EQ(ReadLines(dir.File("a")), (std::vector<std::string>{"first", "", long_line, "last"}));
  db::testing::WriteBytes(dir.File("empty"), "");
  EXPECT_TRUE(ReadLines(dir.File("empty")).empty());
}

TEST(LineReader, ALineOverTheBoundIsRefusedWithItsNumber) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("a"), "0123456789\n01234567890\n");
  try {
    ReadLines(dir.File("a"), 10);
    FAIL() << "read a line of 11 bytes with a bound of 10";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("/a':2: a line of more than 10 bytes"), std::string::npos) << e.what();
  }
  db::testing::WriteBytes(dir.File("b"), std::string(100, 'x'));  // no newline at all
  EXPECT_THROW(ReadLines(dir.File("b"), 10), UsageError);
}

TEST(LineReader, RefusesWhatIsNotARegularFileWithoutWaiting) {
  TempDir dir;
  ASSERT_EQ(mkfifo(dir.File("fifo").c_str(), 0600), 0);  // opening it for reading would wait for a writer
  for (const std::string& path : {dir.File("fifo"), dir.File(""), std::string("/dev/zero"), dir.File("missing")})
    EXPECT_THROW(LineReader{path}, UsageError) << path;
}

TEST(LineReader, AReadErrorIsAnErrorNotTheEnd) {
  LineReader reader("/proc/self/mem");  // a regular file whose first page is not mapped: EIO
  std::string line;
  EXPECT_THROW(reader.Next(&line), std::runtime_error);
}

}  // namespace
}  // namespace tuner
