// The bash completion (packaging/tuner-completion.bash) offers the tool's commands and
// subcommands, each one's options, option values and the kernel names, all read from the built
// tool, and the templates named on the line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.h"

namespace {

namespace fs = std::filesystem;

// Runs `script` in bash after sourcing the completion, without $TUNER_TEMPLATES; its first line.
std::string RunWithCompletion(const std::string& script) {
  const std::string all = "source '" TUNER_SOURCE_DIR "/packaging/tuner-completion.bash'; " + script;
  const auto result =
      tuner::testing::RunCommand("env -u TUNER_TEMPLATES bash -c \"$(cat <<'END'\n" + all + "\nEND\n)\"");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return result.out.substr(0, result.out.find('\n'));
}

// What completing the last of `words` offers, one line: COMP_WORDS as bash would set them
// (bash splits --option=value into --option, =, value).
std::string Complete(const std::string& words) {
  return RunWithCompletion("COMP_WORDS=('" TUNER_EXECUTABLE "' " + words +
                           "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _tuner; echo \"${COMPREPLY[*]}\"");
}

// Each row: the words on the line, and what completing the last of them offers.
void ExpectCompletions(const std::vector<std::pair<std::string, std::string>>& rows) {
  for (const auto& [words, offered] : rows) EXPECT_EQ(Complete(words), offered) << words;
}

TEST(Completion, Commands) {
  ExpectCompletions({
      {"tu", "tune"},
      {"ex", "explore export"},
  });
}

TEST(Completion, OptionsOfTheCommand) {
  ExpectCompletions({
      {"explore --ar", "--arch"},
      {"tune --strat", "--strategy"},
      {"occupancy --thr", "--threads --threads-per-sm"},
  });
}

TEST(Completion, KernelNamesWhereAKernelIsExpected) {
  ExpectCompletions({
      {"tune transp", "transpose"},
      {"explore --arch sm_90 mat", "matmul"},
      {"tune transpose mat", ""},          // one kernel per command
      {"tune --force transpose mat", ""},  // --force takes no value
      {"tune --kernel transp", "transpose"},
      {"export t4 transp", "transpose"},
  });
}

// The templates of --templates DIR on the line are offered too (a copy of transpose, renamed).
TEST(Completion, KernelNamesOfTheTemplatesOnTheLine) {
  const fs::path dir = fs::temp_directory_path() / ("tuner-completion-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ifstream toml(TUNER_SOURCE_DIR "/kernel_templates/transpose.toml");
  std::stringstream text;
  text << toml.rdbuf();
  std::ofstream(dir / "own_transpose.toml") << std::regex_replace(
      text.str(), std::regex("^name = \"transpose\"$", std::regex::multiline), "name = \"own_transpose\"");
  fs::copy_file(TUNER_SOURCE_DIR "/kernel_templates/transpose.cu", dir / "own_transpose.cu");
  EXPECT_EQ(Complete("tune --templates '" + dir.string() + "' own_"), "own_transpose");
  EXPECT_EQ(Complete("explore --templates = '" + dir.string() + "' --kernel own_"), "own_transpose");
  EXPECT_EQ(Complete("tune own_"), "");
  fs::remove_all(dir);
}

TEST(Completion, SubcommandsAndTheirOptions) {
  ExpectCompletions({
      {"db me", "merge"},
      {"db merge --ot", "--other"},
      {"import ''", "t1 kernel-tuner-cache t4"},
      {"import t4 --gpu", "--gpu-model"},  // t4's own options, not t1's
      {"import t1 --open", "--opencl-header"},
      {"export ''", "t4"},
  });
}

TEST(Completion, OptionValues) {
  ExpectCompletions({
      {"tune --strategy b", "brute_force bayesian"},
      {"simulate --strategy = al", "all"},
      {"tune --timing ''", "isolated back_to_back graph"},
      {"tune --counters = e", "explain"},
      {"report --format ''", "html md csv"},
      {"import --format k", "kernel-tuner-cache"},
      {"tune transpose --size ''", ""},  // a free value: no kernel names
  });
}

// --arch offers what `tuner occupancy --list-archs` prints.
TEST(Completion, ArchitecturesFromTheTool) {
  const auto archs =
      tuner::testing::RunCommand("'" TUNER_EXECUTABLE "' occupancy --list-archs | grep '^sm_90' | tr '\\n' ' '");
  ASSERT_EQ(archs.exit_code, 0);
  EXPECT_EQ(Complete("explore --arch sm_90") + " ", archs.out);
  EXPECT_NE(archs.out.find("sm_90a"), std::string::npos);
}

// Each option's fixed words in the completion are among what its --help says it takes.
TEST(Completion, FixedValuesAgreeWithTheHelp) {
  for (const char* command_option :
       {"tune --strategy", "simulate --strategy", "tune --timing", "tune --objective", "query --objective",
        "tune --counters", "tune --warm-start", "report --format", "import --format", "export --format"}) {
    const std::string pair = command_option;
    const std::string command = pair.substr(0, pair.find(' ')), option = pair.substr(pair.find(' ') + 1);
    const std::string words = RunWithCompletion("_tuner_option_words " + pair);
    ASSERT_FALSE(words.empty()) << pair;
    // The option's paragraph of the help: its line and the indented lines under it.
    const std::string help = tuner::testing::RunCommand("'" TUNER_EXECUTABLE "' " + command + " --help").out;
    std::smatch paragraph;
    ASSERT_TRUE(std::regex_search(help, paragraph, std::regex("\n  " + option + " [^\n]*(\n {8,}[^\n]*)*")))
        << pair << "\n"
        << help;
    std::istringstream each(words);
    for (std::string word; each >> word;)
      EXPECT_TRUE(std::regex_search(paragraph.str(), std::regex("\\b" + word + "\\b"))) << pair << ": " << word;
  }
}

}  // namespace
