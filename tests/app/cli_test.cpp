// The command line as a user meets it: help everywhere, exit codes, no GPU needed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli_runner.h"
#include "cuda/device.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using testing::RunTuner;

int CountLines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(Cli, HelpForTheToolAndEveryCommand) {
  const auto top = RunTuner("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("Exit codes: 0 success"), std::string::npos) << top.out;  // README's promise
  for (const char* command : {"devices", "kernels", "occupancy", "explore", "new", "tune", "query", "simulate",
                              "report", "db", "import", "export"})
    EXPECT_NE(top.out.find("  " + std::string(command) + " "), std::string::npos) << command;
  for (const char* command :
       {"devices", "kernels", "occupancy", "explore", "new", "tune", "query", "simulate", "report", "db", "db check",
        "db info", "db export", "db import", "db merge", "db upgrade", "import t1", "export t4"}) {
    const auto help = RunTuner(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.out.find("Usage: tuner " + std::string(command)), std::string::npos) << help.out;
    // Each option names what it takes (--db PATH), never Boost's "arg".
    EXPECT_FALSE(std::regex_search(help.out, std::regex("\n  -[^\n]* arg( |\n)"))) << command << "\n" << help.out;
  }
}

TEST(Cli, BadUsageIsOneLineAndExitTwo) {
  for (const std::string& args : std::vector<std::string>{
           "", "bogus", "tune --bogus", "kernels --json extra", "tune transpose --size 8x", "tune nosuch",
           "kernels --templates /no/such/folder", "tune transpose --strategy bogus", "tune transpose --gpus 0,x",
           "tune transpose --gpus 0 --gpu 1", "tune transpose --gpus all --strategy annealing",
           "explore transpose --size 0",
           "kernels --templates /tmp/" + std::string(300, 'x')}) {  // a name the file system refuses
    const auto r = RunTuner(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    if (!args.empty()) {
      EXPECT_EQ(CountLines(r.err), 1) << args << ": " << r.err;
    }
  }
}

// A misspelt command gets the nearest one, at the top and under db.
TEST(Cli, AMisspeltCommandNamesTheNearest) {
  const auto top = RunTuner("tnue transpose");
  EXPECT_EQ(top.exit_code, 2);
  EXPECT_NE(top.err.find("'tnue' is not a tuner command (did you mean `tune`?)"), std::string::npos) << top.err;
  const auto db = RunTuner("db mrege");
  EXPECT_EQ(db.exit_code, 2);
  EXPECT_NE(db.err.find("'mrege' is not a db command (did you mean `merge`?)"), std::string::npos) << db.err;
}

// Under --json an error is a JSON document on stdout too, with the message and the exit code; the
// message stays on stderr.
TEST(Cli, UnderJsonAnErrorIsADocumentOnStdout) {
  for (const std::string& args : {std::string("tune transpose --strategy bogus --json"), std::string("tnue --json"),
                                  std::string("kernels --templates /no/such/folder --json")}) {
    const auto r = RunTuner(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    const auto document = nlohmann::json::parse(r.out);
    EXPECT_EQ(document.at("exit_code"), 2) << args;
    const std::string message = document.at("error");
    EXPECT_FALSE(message.empty()) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
  EXPECT_EQ(RunTuner("tune transpose --strategy bogus").out, "");  // without --json, stdout stays empty
}

// A bad option value is refused before any GPU, file or database is touched: exit 2 (not 3 for no
// GPU or 1 for no database), one line naming the option and the value, and nothing created in the
// working folder, the data folder (the default database) or the cache.
TEST(Cli, EveryBadOptionIsRefusedBeforeAnyWork) {
  struct Case {
    const char* args;
    const char* named;  // what the message must name
  };
  const Case cases[] = {
      {"tune transpose --budget -1", "--budget '-1'"},
      {"tune transpose --budget-seconds -1", "--budget-seconds '-1'"},
      {"tune transpose --budget-seconds nan", "--budget-seconds 'nan'"},
      {"tune transpose --budget-seconds inf", "--budget-seconds 'inf'"},
      {"tune transpose --timeout-floor 0", "--timeout-floor '0'"},
      {"tune transpose --counters some", "--counters 'some'"},
      {"tune transpose --counters ''", "--counters ''"},
      {"tune transpose --objective power", "--objective 'power'"},
      {"query transpose --objective speed", "--objective 'speed'"},
      {"tune transpose --timing warm", "--timing 'warm' is not one of isolated, back_to_back or graph"},
      {"query transpose --timing Graph", "--timing 'Graph' is not one of isolated, back_to_back or graph"},
      {"report --timing cold", "--timing 'cold' is not one of isolated, back_to_back or graph"},
      {"tune histogram --timing graph",
       "--timing graph cannot time histogram: its output 'bins' is reset before each launch"},
      {"tune streams --timing back_to_back", "--timing back_to_back cannot time streams: its [pipeline]"},
      {"tune transpose --launches-per-sample 0", "--launches-per-sample '0'"},
      {"tune transpose --launches-per-sample 65537", "--launches-per-sample '65537'"},
      {"tune transpose --timing isolated --launches-per-sample 64",
       "--launches-per-sample applies to the back_to_back and graph timing modes; transpose is timed isolated here"},
      {"tune transpose --seed -1", "--seed '-1'"},
      {"tune transpose --gpu -1", "--gpu '-1'"},
      {"tune transpose --gpus 0,-1", "--gpus '0,-1'"},
      {"tune transpose --size ''", "--size ''"},
      {"tune transpose --size 9223372036854775807x8", "9223372036854775807 is too large"},
      {"tune transpose --strategy annealing --gpus all", "--gpus"},
      {"tune transpose --strategy bayesian --shard 1/2", "--shard"},
      {"tune transpose --strategy Bayesian",
       "--strategy 'Bayesian': unknown search strategy (known: auto, brute_force, random, annealing, genetic, "
       "bayesian)"},
      {"tune transpose --db /tmp", "--db '/tmp': is a folder"},
      {"explore transpose --gpu -1", "--gpu '-1'"},
      {"explore transpose --size ''", "--size ''"},
      {"explore transpose --arch sm_90 --gpu 0", "--arch and --gpu"},
      {"explore transpose --arch SM_90", "sm_90"},
      {"explore transpose --arch compute_90", "virtual architecture"},
      {"explore transpose --arch sm_61", "sm_75 and newer"},
      {"occupancy --gpu -1 --threads 256", "--gpu '-1'"},
      {"occupancy --threads 256 --regs 256", "--regs '256'"},
      {"occupancy --threads 2048", "--threads '2048'"},
      {"occupancy --threads 256 --regs-per-sm 65537", "--regs-per-sm '65537'"},
      {"occupancy --threads 256 --smem-per-sm 229K", "--smem-per-sm '229K'"},
      {"occupancy --threads 256 --param TILE=32", "--param: only with --kernel"},
      {"occupancy --threads 256 --size 64", "--size: only with --kernel"},
      {"occupancy --kernel transpose --param TILE=17", "TILE takes 16, 32, 64"},
      {"occupancy --kernel transpose --param TILE=16 --param TILE=32", "TILE is given twice"},
      {"occupancy --kernel transpose --size ''", "--size ''"},
      {"occupancy --list-archs --arch sm_90", "--list-archs"},
      {"occupancy --arch sm_90 --threads 256 --vary regs --svg /no/such/folder/c.svg", "--svg"},
      {"query transpose --gpu -1", "--gpu '-1'"},
      {"query transpose --size ''", "--size ''"},
      {"query transpose --gpu 0 --device H100", "--gpu and --device"},
      {"query nosuch --size 9223372036854775807", "too large"},
      {"report --size ''", "--size ''"},
      {"report -o /no/such/folder/r.html", "--output"},
      {"simulate transpose --runs 0", "--runs '0'"},
      {"simulate transpose --seed -1", "--seed '-1'"},
      {"simulate transpose --budget -1", "--budget '-1'"},
      {"simulate transpose --strategy random,bogus", "--strategy 'bogus'"},
      {"simulate transpose --size ''", "--size ''"},
      {"db export -o /no/such/folder/x.jsonl", "--output"},
      {"tune transpose --db ''", "--db ''"},
      {"report --device ''", "--device ''"},
      {"db info --db ''", "--db ''"},
      {"tune ''", "--kernel ''"},
      {"simulate \"$(printf 'a\\nb')\"", "no template 'a\\nb'"},
      {"tune transpose --gpus \"$(printf '0\\n1')\"", "--gpus '0\\n1'"},
      {"report --format \"$(printf 'a\\nb')\"", "--format 'a\\nb'"},
      {"kernels \"$(printf 'a\\nb')\"", "unknown kernel 'a\\nb'"},
  };
  for (const Case& c : cases) {
    db::testing::TempDir dir;
    const auto r = RunTuner(c.args, "cd " + dir.File("") + " && XDG_DATA_HOME=" + dir.File("data") +
                                        " XDG_CACHE_HOME=" + dir.File("cache") + " TUNER_DB=");
    EXPECT_EQ(r.exit_code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.named), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.File(""))) << c.args << " created files";
  }
}

TEST(Cli, DevicesWorksWithOrWithoutAGpu) {
  const auto text = RunTuner("devices");
  EXPECT_EQ(text.exit_code, 0) << text.err;
  const auto json = RunTuner("devices --json");
  ASSERT_EQ(json.exit_code, 0);
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_TRUE(doc.at("gpus").is_array());
  if (doc["gpus"].empty()) {
    EXPECT_FALSE(doc.at("problem").get<std::string>().empty());
  }
}

TEST(Cli, KernelsListsTemplatesWithParametersAndSizes) {
  const auto r = RunTuner("kernels --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& t : doc.at("templates")) {
    if (t.at("name") != "transpose") continue;
    found = true;
    EXPECT_EQ(t.at("sizes").size(), 2u);
    EXPECT_EQ(t.at("params").size(), 4u);
  }
  EXPECT_TRUE(found);
  EXPECT_NE(RunTuner("kernels transpose").out.find("TILE: 16 32 64"), std::string::npos);
}

// A summary with a terminal escape sequence was printed raw, so a template from elsewhere
// could rewrite the screen of whoever lists it.
TEST(Cli, KernelsEscapesControlCharactersOfASummary) {
  db::testing::TempDir dir;
  std::string toml = testing::ReadFileText(std::string(TUNER_SOURCE_DIR) + "/kernel_templates/transpose.toml");
  toml.replace(toml.find("name = \"transpose\""), 18, "name = \"esc_summary\"");
  toml.replace(toml.find("summary = \"") + 11, 0, "\\u001b[2J\\u001b]0;owned\\u0007");
  db::testing::WriteBytes(dir.File("esc_summary.toml"), toml);
  std::filesystem::copy_file(std::string(TUNER_SOURCE_DIR) + "/kernel_templates/transpose.cu",
                             dir.File("esc_summary.cu"));
  const auto r = RunTuner("kernels esc_summary --templates " + dir.File(""));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[2J\\x1b]0;owned\\x07Matrix transpose"), std::string::npos) << r.out;
}

TEST(Cli, GpuCommandWithoutAGpuExitsThreeAndCreatesNothing) {
  if (!DiscoverGpus().gpus.empty()) GTEST_SKIP() << "a GPU is present";
  db::testing::TempDir dir;
  const auto r = RunTuner("tune transpose --db " + dir.File("t.db"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("needs a CUDA GPU"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

// A database tune could not write is refused before a GPU is looked for, and left as it was.
TEST(Cli, TuneRefusesABadDatabaseBeforeAnyGpu) {
  db::testing::TempDir dir;
  std::ofstream(dir.File("notes.db")) << "not a database, but a user's notes\n";
  const auto foreign = RunTuner("tune transpose --db " + dir.File("notes.db"));
  EXPECT_EQ(foreign.exit_code, 4) << foreign.err;
  EXPECT_EQ(CountLines(foreign.err), 1) << foreign.err;
  EXPECT_EQ(std::filesystem::file_size(dir.File("notes.db")), 35u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.File("")), {}), 1);  // no -wal, -shm or journal
}

TEST(Cli, BadSizeCreatesNoDatabase) {
  db::testing::TempDir dir;
  EXPECT_EQ(RunTuner("tune transpose --size 0x4 --db " + dir.File("t.db")).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

// tune --revalidate: options that choose sizes or candidates are refused (exit 2), and without a
// database there is nothing to revalidate; neither creates one.
TEST(Cli, RevalidateRefusesBadInputAndCreatesNoDatabase) {
  db::testing::TempDir dir;
  const auto both = RunTuner("tune transpose --revalidate --size 64x64 --db " + dir.File("t.db"));
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_EQ(CountLines(both.err), 1) << both.err;
  EXPECT_NE(both.err.find("--revalidate and --size"), std::string::npos) << both.err;
  const auto missing = RunTuner("tune transpose --revalidate --db " + dir.File("t.db"));
  EXPECT_EQ(missing.exit_code, 1) << missing.err;
  EXPECT_NE(missing.err.find("nothing to revalidate"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

// 10^7 candidates, ten times what a command holds: counted, refused, and nothing created.
TEST(Cli, ASpaceTooLargeToHoldIsRefusedBeforeAnyWork) {
  db::testing::TempDir dir;
  std::string params;
  for (const char* name : {"A", "B", "C", "D", "E", "F", "G"})
    params += std::string("[[param]]\nname = \"") + name + "\"\nvalues = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
  testing::WriteTemplateFiles(dir.File("templates"), "small",
                              testing::Replaced(testing::kSmallDescription, "[launch]", params + "[launch]"));
  for (const std::string& command :
       {"tune small --db " + dir.File("t.db"), std::string("explore small --arch sm_90")}) {
    const auto r = RunTuner(command + " --templates " + dir.File("templates"));
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find("small.toml: more than 1000000 valid candidates at N=1024 (of 10000000 combinations)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
  }
}

// A space of more combinations than a moment's walk is walked only once a GPU is found: a machine
// without one says so at once (exit 3), never after walking the space (here it would refuse the
// space, exit 2, after counting a million candidates).
TEST(Cli, ASpaceTooLongToWalkLooksForTheGpuFirst) {
  db::testing::TempDir dir;
  std::string params;
  for (const char* name : {"A", "B", "C", "D", "E", "F", "G", "H"})
    params += std::string("[[param]]\nname = \"") + name + "\"\nvalues = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
  testing::WriteTemplateFiles(dir.File("templates"), "small",
                              testing::Replaced(testing::kSmallDescription, "[launch]", params + "[launch]"));
  const auto r = RunTuner("tune small --db " + dir.File("t.db") + " --templates " + dir.File("templates"),
                          "CUDA_VISIBLE_DEVICES=");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.find("valid candidates"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

}  // namespace
}  // namespace tuner
