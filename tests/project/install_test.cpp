// `cmake --install` makes a relocatable tool: an installed prefix, moved elsewhere, runs
// from its new place with the templates it installed (never the source tree's), has one man page
// per command and the bash completion; with its templates gone it says where it looked.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "cli_runner.h"

namespace {

namespace fs = std::filesystem;
using tuner::testing::CliResult;
using tuner::testing::RunCommand;

// One prefix per test binary run: installed once, then moved.
class Install : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("tuner-install-test-" + std::to_string(getpid()));
    fs::remove_all(root_);
    const fs::path installed = root_ / "installed";
    const CliResult install = RunCommand("'" CMAKE_COMMAND "' --install '" TUNER_BUILD_DIR "' --prefix '" +
                                         installed.string() + "' >/dev/null");
    ASSERT_EQ(install.exit_code, 0) << install.err;
    fs::create_directories(Moved().parent_path());
    fs::rename(installed, Moved());
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static fs::path Moved() { return root_ / "moved" / "prefix"; }

  static CliResult Tool(const std::string& args) {
    return RunCommand("env -u TUNER_TEMPLATES HOME='" + root_.string() + "' '" + (Moved() / "bin" / "tuner").string() +
                      "' " + args);
  }

  static fs::path root_;
};

fs::path Install::root_;

TEST_F(Install, MovedPrefixRunsWithItsOwnTemplates) {
  const CliResult kernels = Tool("kernels transpose --json");
  ASSERT_EQ(kernels.exit_code, 0) << kernels.err;
  const fs::path toml = Moved() / "share" / "tuner" / "kernel_templates" / "transpose.toml";
  EXPECT_NE(kernels.out.find("\"description\": \"" + toml.string() + "\""), std::string::npos) << kernels.out;
  const CliResult occupancy = Tool("occupancy --arch sm_90 --threads 256 --regs 32 --smem 4096");
  EXPECT_EQ(occupancy.exit_code, 0) << occupancy.err;
}

TEST_F(Install, HasTheLicence) {
  EXPECT_EQ(tuner::testing::ReadFileText((Moved() / "share/doc/tuner/LICENSE").string()),
            tuner::testing::ReadFileText(TUNER_SOURCE_DIR "/LICENSE"));
  EXPECT_TRUE(fs::exists(Moved() / "share/doc/tuner/NOTICE"));
}

TEST_F(Install, HasTheLibrariesAndTheirPackages) {
  for (const char* file :
       {"include/tuner/tuned_config.h", "include/tuner/base/gpu_identity.h", "include/tuner/launch.h",
        "lib/cmake/tuner_query/tuner_query-config.cmake", "lib/cmake/tuner_capture/tuner_capture-config.cmake",
        "share/tuner/examples/query/CMakeLists.txt", "share/tuner/examples/capture/CMakeLists.txt",
        "share/bash-completion/completions/tuner"})
    EXPECT_TRUE(fs::exists(Moved() / file)) << file;
}

// Every command of `tuner --help` has its page tuner-COMMAND.1, and there is no page of a command
// the tool does not have (packaging/man_pages.cmake lists them).
TEST_F(Install, HasOneManPagePerCommand) {
  const CliResult help = Tool("--help");
  ASSERT_EQ(help.exit_code, 0);
  std::set<std::string> commands, pages;
  const std::string listing = help.out.substr(help.out.find("Commands:"));
  const std::regex command_line("\n  ([a-z]+) ");
  for (std::sregex_iterator it(listing.begin(), listing.end(), command_line), end; it != end; ++it)
    commands.insert("tuner-" + (*it)[1].str() + ".1");
  for (const auto& entry : fs::directory_iterator(Moved() / "share" / "man" / "man1"))
    if (entry.path().filename() != "tuner.1") pages.insert(entry.path().filename().string());
  EXPECT_FALSE(commands.empty());
  EXPECT_EQ(pages, commands);
  EXPECT_TRUE(fs::exists(Moved() / "share" / "man" / "man1" / "tuner.1"));
  EXPECT_NE(tuner::testing::ReadFileText((Moved() / "share/man/man1/tuner-tune.1").string()).find("\\-\\-strategy"),
            std::string::npos);
}

// tuner-slurm is installed beside the tool and writes jobs that run that tool, wherever the prefix
// was moved (docs/hpc.md; tests/slurm/slurm_test.sh runs them on a real Slurm).
TEST_F(Install, TunerSlurmWritesJobsThatRunTheToolBesideIt) {
  const fs::path jobs = root_ / "slurm-jobs";
  const std::string tuner_slurm = "'" + (Moved() / "bin" / "tuner-slurm").string() + "'";
  const CliResult run =
      RunCommand(tuner_slurm + " transpose --shards 2 --arch sm_90 --gpu-model h200 --dir '" + jobs.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* file : {"compile.sbatch", "tune.sbatch", "merge.sbatch", "submit.sh"})
    EXPECT_TRUE(fs::exists(jobs / file)) << file;
  const std::string tune = tuner::testing::ReadFileText((jobs / "tune.sbatch").string());
  EXPECT_NE(tune.find("TUNER=" + (Moved() / "bin" / "tuner").string() + "\n"), std::string::npos) << tune;
  EXPECT_NE(tune.find("#SBATCH --gres=gpu:h200:1\n"), std::string::npos) << tune;
  EXPECT_EQ(RunCommand(tuner_slurm + " transpose --shards 0 --arch sm_90").exit_code, 2);
}

// Every page has the sections --help cannot give (packaging/man_sections.h2m), and names what each
// option takes instead of Boost's "arg".
TEST_F(Install, ManPagesHaveTheSharedSections) {
  for (const char* page : {"tuner.1", "tuner-tune.1", "tuner-db.1"}) {
    const std::string text = tuner::testing::ReadFileText((Moved() / "share/man/man1" / page).string());
    for (const char* section : {".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH FILES", ".SH \"SEE ALSO\""})
      EXPECT_NE(text.find(section), std::string::npos) << page << " has no " << section;
    EXPECT_NE(text.find("TUNER_TEMPLATES"), std::string::npos) << page;
    EXPECT_NE(text.find(".BR tuner\\-export (1)"), std::string::npos) << page << ": SEE ALSO lacks the last command";
    EXPECT_FALSE(std::regex_search(text, std::regex("\\\\fR arg\\b"))) << page;
  }
  EXPECT_NE(
      tuner::testing::ReadFileText((Moved() / "share/man/man1/tuner-tune.1").string()).find("\\fB\\-\\-db\\fR PATH"),
      std::string::npos);
}

// Last: it removes the templates. The message names the folder looked in and both ways to name one.
TEST_F(Install, WithoutTemplatesSaysWhereItLooked) {
  const fs::path templates = Moved() / "share" / "tuner" / "kernel_templates";
  fs::remove_all(templates);
  for (const std::string args : {"tune transpose", "kernels"}) {
    const CliResult run = Tool(args);
    EXPECT_EQ(run.exit_code, args == "kernels" ? 1 : 2) << args;
    EXPECT_NE(run.err.find("looked in " + templates.string()), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--templates DIR or $TUNER_TEMPLATES"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("known kernels:"), std::string::npos) << run.err;
  }
  const CliResult named = Tool("kernels transpose --templates '" TUNER_SOURCE_DIR "/kernel_templates'");
  EXPECT_EQ(named.exit_code, 0) << named.err;
}

}  // namespace
