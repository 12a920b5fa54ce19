// The options several commands share, read as a command reads them: a bad value is a UsageError
// naming the option and the value; a good one, or none, reads as the commands expect.
#include "app/command_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "base/errors.h"

namespace tuner {
namespace {

// A command with every shared option, parsed from `args` as `tuner demo ARGS...` would be.
struct Demo {
  po::options_description options{"Options"};
  po::positional_options_description positional;
  po::variables_map vm;

  explicit Demo(std::initializer_list<const char*> args) {
    AddFormatArgument(options, positional, "the format");
    AddKernelArgument(options, positional);
    AddTemplatesOption(options);
    AddDatabaseOption(options);
    AddJsonOption(options);
    AddSizeOption(options, "problem size");
    AddGpuOption(options, "GPU index");
    AddDeviceOption(options);
    AddOutputFileOption(options, "file to write");
    AddObjectiveOption(options, "");
    AddBudgetOption(options, "at most N");
    AddSeedOption(options, "7", "seed");
    std::vector<std::string> words = {"demo", "t4", "transpose"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    EXPECT_TRUE(ParseCommandLine(static_cast<int>(argv.size()), argv.data(), {"demo", "tuner demo", "", ""}, options,
                                 positional, &vm));
  }
};

// The message of the UsageError `read` throws, "" when it throws none.
template <typename Read>
std::string Refusal(Read read) {
  try {
    read();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CommandOptions, LeftOutTheyReadAsTheirDefaults) {
  const Demo demo({});
  EXPECT_EQ(KernelArgument(demo.vm), "transpose");
  EXPECT_TRUE(TemplateFolders(demo.vm).empty());
  EXPECT_FALSE(JsonOutput(demo.vm));
  EXPECT_EQ(SizeOption(demo.vm), "");
  EXPECT_EQ(GpuOption(demo.vm), std::nullopt);
  EXPECT_EQ(DeviceFilter(demo.vm), "");
  EXPECT_EQ(OutputFile(demo.vm), std::nullopt);
  EXPECT_EQ(ObjectiveOption(demo.vm), db::Objective::kTime);
  EXPECT_EQ(BudgetOption(demo.vm), 0u);
  EXPECT_EQ(SeedOption(demo.vm), 7u);
}

TEST(CommandOptions, GivenTheyReadAsGiven) {
  const Demo demo(
      {"--templates", "a",           "--templates", "b",        "--db",     "results.db", "--json",
       "--size",      "64x32",       "--gpu",       "1",        "--device", "H100",       "-o",
       "-",           "--objective", "edp",         "--budget", "40",       "--seed",     "18446744073709551615"});
  EXPECT_EQ(TemplateFolders(demo.vm), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(DatabasePath(demo.vm), "results.db");
  EXPECT_TRUE(JsonOutput(demo.vm));
  EXPECT_EQ(SizeOption(demo.vm), "64x32");
  EXPECT_EQ(GpuOption(demo.vm), 1);
  EXPECT_EQ(DeviceFilter(demo.vm), "H100");
  EXPECT_EQ(OutputFile(demo.vm), "-");
  EXPECT_EQ(ObjectiveOption(demo.vm), db::Objective::kEdp);
  EXPECT_EQ(BudgetOption(demo.vm), 40u);
  EXPECT_EQ(SeedOption(demo.vm), 18446744073709551615ull);
  EXPECT_EQ(Refusal([&] { RequireFormat(demo.vm, "t4", "exports"); }), "");
}

TEST(CommandOptions, BadValuesAreRefusedNamingTheOptionAndTheValue) {
  EXPECT_EQ(Refusal([] { BudgetOption(Demo({"--budget=-1"}).vm); }), "--budget '-1': must be 0 or more (0: no limit)");
  EXPECT_EQ(Refusal([] { BudgetOption(Demo({"--budget", "ten"}).vm); }), "--budget 'ten': not a whole number");
  EXPECT_EQ(Refusal([] { SeedOption(Demo({"--seed", "0x1f"}).vm); }).rfind("--seed '0x1f': ", 0), 0u);
  EXPECT_EQ(Refusal([] {
              ObjectiveOption(Demo({"--objective", "speed"}).vm);
            }),
            "--objective 'speed' is not one of time, energy, edp");
  EXPECT_EQ(Refusal([] { GpuOption(Demo({"--gpu=-1"}).vm); }).rfind("--gpu '-1': ", 0), 0u);
  EXPECT_EQ(Refusal([] { SizeOption(Demo({"--size", "64xQ"}).vm); }).rfind("--size '64xQ'", 0), 0u);
  EXPECT_EQ(Refusal([] { RequireFormat(Demo({}).vm, "t1", "imports"); }), "'t4' is not a format tuner imports (t1)");
}

TEST(CommandOptions, AnOutputFileMustBeWritable) {
  const std::string folder = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(Refusal([&] {
              OutputFile(Demo({"-o", folder.c_str()}).vm);
            }),
            "--output '" + folder + "': is a folder; give a file name");
  EXPECT_EQ(Refusal([] {
              OutputFile(Demo({"--output", "/no-such-folder/x.json"}).vm);
            }),
            "--output '/no-such-folder/x.json': the folder '/no-such-folder' does not exist");
  const std::string file = folder + "/tuner-command-options-test.json";
  EXPECT_EQ(OutputFile(Demo({"-o", file.c_str()}).vm), file);
  EXPECT_FALSE(std::filesystem::exists(file));  // checked, not created
}

TEST(CommandOptions, AnOutputFileDefaultIsShownAndRead) {
  po::options_description options("Options");
  AddOutputFileOption(options, "file to write (default: stdout)", "-");
  std::ostringstream help;
  help << options;
  EXPECT_NE(help.str().find("-o [ --output ] FILE (=-)"), std::string::npos) << help.str();
  po::variables_map vm;
  const char* argv[] = {"demo"};
  ASSERT_TRUE(ParseCommandLine(1, const_cast<char**>(argv), {"demo", "tuner demo", "", ""}, options, {}, &vm));
  EXPECT_EQ(OutputFile(vm), "-");
}

TEST(CommandOptions, ANoteIsAddedToTheSharedWording) {
  po::options_description options("Options");
  AddDeviceOption(options, "no GPU needed");
  AddObjectiveOption(options, "among the measurements that have it");
  EXPECT_EQ(options.find("device", false).description(),
            "only the stored GPU models whose name contains NAME, e.g. H100; no GPU needed");
  EXPECT_EQ(options.find("objective", false).description(),
            "what 'best' means: time, energy (joules per launch) or edp (energy x time); among the measurements that "
            "have it");
}

}  // namespace
}  // namespace tuner
