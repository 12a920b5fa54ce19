#include "common/same_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/errors.h"
#include "db_test_util.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;

TEST(SameFile, FollowsSymbolicAndHardLinks) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("a"), "a");
  db::testing::WriteBytes(dir.File("b"), "a");
  fs::create_symlink(dir.File("a"), dir.File("soft"));
  fs::create_hard_link(dir.File("a"), dir.File("hard"));
  EXPECT_TRUE(SameFile(dir.File("a"), dir.File("soft")));
  EXPECT_TRUE(SameFile(dir.File("a"), dir.File("hard")));
  EXPECT_TRUE(SameFile(dir.File("a"), dir.File("./a")));
  EXPECT_FALSE(SameFile(dir.File("a"), dir.File("b")));  // equal bytes, another file
  EXPECT_FALSE(SameFile(dir.File("missing"), dir.File("missing")));
}

TEST(SameFile, RefusesAnOutputThatIsAnInputOrItsJournal) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("x.db"), "db");
  db::testing::WriteBytes(dir.File("x.db-wal"), "wal");
  const std::vector<std::string> inputs = DatabaseFiles(dir.File("x.db"));
  EXPECT_THROW(RefuseReplacingInputs(dir.File("x.db"), inputs), UsageError);
  EXPECT_THROW(RefuseReplacingInputs(dir.File("x.db-wal"), inputs), UsageError);
  EXPECT_NO_THROW(RefuseReplacingInputs(dir.File("report.html"), inputs));
  EXPECT_NO_THROW(RefuseReplacingInputs(dir.File("x.db-shm"), inputs));  // no such file: nothing to destroy
}

}  // namespace
}  // namespace tuner
