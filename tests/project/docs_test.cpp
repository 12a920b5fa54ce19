// What the documentation tells a reader to run: the README's quick-start commands are scripts of the
// repository, and the tutorial's template (docs/tutorial.md), written out as the page shows it, loads
// and compiles (no GPU needed; tuning it needs one).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "db_test_util.h"

namespace {

namespace fs = std::filesystem;
using tuner::db::testing::TempDir;
using tuner::testing::ReadFileText;
using tuner::testing::RunTuner;

// The contents of the page's fenced blocks of one language (```cuda ... ```), in order.
std::vector<std::string> FencedBlocks(const std::string& page, const std::string& language) {
  const std::regex block("```" + language + "\n([^`]*)```");
  std::vector<std::string> blocks;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), block); it != std::sregex_iterator(); ++it)
    blocks.push_back((*it)[1].str());
  return blocks;
}

TEST(Docs, TheReadmesQuickStartCommandsAreScripts) {
  const std::string readme = ReadFileText(TUNER_SOURCE_DIR "/README.md");
  for (const char* script : {"scripts/quickstart.sh", "scripts/test.sh"}) {
    EXPECT_NE(readme.find("\n" + std::string(script) + " "), std::string::npos) << script;
    EXPECT_EQ(access((TUNER_SOURCE_DIR "/" + std::string(script)).c_str(), X_OK), 0) << script;
  }
}

TEST(Docs, TheTutorialsTemplateLoadsAndCompiles) {
  const std::string page = ReadFileText(TUNER_SOURCE_DIR "/docs/tutorial.md");
  const std::vector<std::string> sources = FencedBlocks(page, "cuda");
  const std::vector<std::string> descriptions = FencedBlocks(page, "toml");
  ASSERT_EQ(sources.size(), 1u);
  ASSERT_EQ(descriptions.size(), 1u);
  TempDir dir;
  fs::create_directories(dir.File("kernels"));
  std::ofstream(dir.File("kernels/saxpy.cu")) << sources[0];
  std::ofstream(dir.File("kernels/saxpy.toml")) << descriptions[0];
  const std::string environment =
      "env -u TUNER_TEMPLATES HOME='" + dir.File("home") + "' XDG_CACHE_HOME='" + dir.File("cache") + "'";
  const auto kernels = RunTuner("kernels saxpy --templates '" + dir.File("kernels") + "'", environment);
  ASSERT_EQ(kernels.exit_code, 0) << kernels.err;
  EXPECT_NE(kernels.out.find("20 combinations"), std::string::npos) << kernels.out;  // as the page says
  const auto explore = RunTuner("explore saxpy --arch sm_90 --templates '" + dir.File("kernels") + "'", environment);
  ASSERT_EQ(explore.exit_code, 0) << explore.err;
  EXPECT_NE(explore.out.find("20 candidates, 0 cannot launch (invalid), 0 compile error(s)"), std::string::npos)
      << explore.out;
}

}  // namespace
