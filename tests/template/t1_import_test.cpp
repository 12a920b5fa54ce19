#include "template/t1_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "common/errors.h"
#include "db_test_util.h"
#include "template/search_space.h"
#include "template/template_spec.h"
#include "template/template_values.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using nlohmann::json;
using testing::ReadFileText;
using testing::RunCommand;

const std::string kFixtures = std::string(TUNER_FIXTURES_DIR) + "/t1";

json ReadJson(const std::string& path) { return json::parse(ReadFileText(path)); }

// A copy of a fixture, changed by `edit`, beside a copy of its kernel source.
std::string EditedFixture(const TempDir& dir, const std::string& name, const std::function<void(json&)>& edit) {
  json t1 = ReadJson(kFixtures + "/" + name + ".json");
  edit(t1);
  const std::string path = dir.File(name + ".json");
  std::ofstream(path) << t1.dump(2);
  fs::copy_file(kFixtures + "/" + name + ".cu", dir.File(name + ".cu"), fs::copy_options::overwrite_existing);
  return path;
}

std::string ImportError(const std::string& path, const std::string& name = "") {
  try {
    ImportT1(path, name);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(T1Import, KernelTunerStyleDescription) {
  const ImportedTemplate imported = ImportT1(kFixtures + "/vector_add.json", "");
  EXPECT_EQ(imported.name, "vector_add");
  ASSERT_EQ(imported.constraints.size(), 1u);
  EXPECT_EQ(imported.constraints[0].second, "block_size_x * tile_size <= 2048 && block_size_x <= 1024");
  EXPECT_NE(imported.description.find("grid = [\"cdiv(ProblemSize_0, block_size_x * tile_size)\"]"), std::string::npos)
      << imported.description;
  EXPECT_NE(imported.description.find("params = { block_size_x = 128, tile_size = 1 }"),
            std::string::npos);  // T1's Default

  TempDir out;
  const WrittenTemplate written = WriteImportedTemplate(imported, out.File("kernels"));
  const TemplateSpec spec = LoadTemplateFile(written.description_path);
  EXPECT_EQ(written.candidates, 22u);  // 6 block sizes of at most 1024 x 4 tiles, less 1024 x 3 and 1024 x 4
  EXPECT_EQ(written.size_key, "1000000");
  EXPECT_EQ(spec.params[1].values, (std::vector<long long>{1, 2, 3, 4}));
  EXPECT_TRUE(spec.check.own_configuration);
  EXPECT_EQ(spec.args[0].init, BufferInit::kZero);
  EXPECT_TRUE(spec.args[0].output);
  EXPECT_EQ(spec.args[3].value, "1000000");
  EXPECT_EQ(ReadFileText(out.File("kernels/vector_add.cu")), ReadFileText(kFixtures + "/vector_add.cu"));
  // The grid covers the problem at every candidate.
  for (const ParamValues& candidate : EnumerateCandidates(spec, DefaultSize(spec))) {
    const LaunchGeometry g = EvaluateLaunch(spec.launch, MakeVariables(DefaultSize(spec), candidate));
    EXPECT_GE(g.grid[0] * g.block[0] * candidate[1].second, 1000000) << DescribeParams(candidate);
  }
}

TEST(T1Import, KttStyleDescriptionWithConstantMemory) {
  const ImportedTemplate imported = ImportT1(kFixtures + "/stencil.json", "");
  EXPECT_EQ(imported.name, "stencil");  // no BenchmarkName: the file's name
  TempDir out;
  const WrittenTemplate written = WriteImportedTemplate(imported, out.File("k"));
  const TemplateSpec spec = LoadTemplateFile(written.description_path);
  EXPECT_EQ(written.candidates, 20u);  // Python's count of the same conditions
  ASSERT_EQ(spec.symbols.size(), 1u);
  EXPECT_EQ(spec.symbols[0].name, "weights");
  EXPECT_EQ(spec.args[0].init, BufferInit::kPoison);  // write-only, no fill given
  // GlobalSize in threads (OpenCL), rounded up to whole blocks: enough blocks for every element.
  for (const ParamValues& candidate : EnumerateCandidates(spec, DefaultSize(spec))) {
    const LaunchGeometry g = EvaluateLaunch(spec.launch, MakeVariables(DefaultSize(spec), candidate));
    const long long per_block = candidate[0].second * candidate[1].second;
    EXPECT_EQ(g.grid[0], (100003 + per_block - 1) / per_block) << DescribeParams(candidate);
  }
  // No T1 defaults: the first configuration that satisfies the conditions.
  EXPECT_EQ(spec.check.params.at("block_size_x"), 64);
  EXPECT_EQ(spec.check.params.at("items_per_thread"), 1);
  EXPECT_EQ(spec.check.params.at("use_constant"), 0);
}

TEST(T1Import, BadInputNamesTheFileAndTheField) {
  TempDir dir;
  const auto error = [&](const std::function<void(json&)>& edit) {
    return ImportError(EditedFixture(dir, "vector_add", edit));
  };
  const std::string file = dir.File("vector_add.json");
  EXPECT_EQ(error([](json& t) { t.erase("KernelSpecification"); }),
            file + ": KernelSpecification: missing (the T1 schema requires it)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][0].erase("Values"); }),
            file + ": ConfigurationSpace.TuningParameters[0].Values: missing (the T1 schema requires it)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = "block_size_x & 32"; }),
            file +
                ": ConfigurationSpace.Conditions[0].Expression: 'block_size_x & 32': the bitwise operator '&' has no "
                "counterpart in the template syntax");
  EXPECT_EQ(
      error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Name"] = "int"; }),
      file +
          ": ConfigurationSpace.TuningParameters[1].Name: 'int' is a C++ keyword, which a parameter may not be named "
          "(it becomes a macro of the source and a variable of the expressions)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Name"] = "ProblemSize_0"; }),
            file +
                ": ConfigurationSpace.TuningParameters[1].Name: 'ProblemSize_0' is the name the import gives "
                "KernelSpecification.ProblemSize");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Type"] = "string"; }),
            file +
                ": ConfigurationSpace.TuningParameters[1].Type: 'string': tuner's parameters are whole numbers (int or "
                "uint)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Values"] = "[1, 2, 2]"; }),
            file + ": ConfigurationSpace.TuningParameters[1].Values: 2 is listed twice");
  EXPECT_EQ(error([](json& t) { t["KernelSpecification"]["Language"] = "OpenCL"; }),
            file + ": KernelSpecification.Language: 'OpenCL': tuner compiles CUDA kernels only");
  EXPECT_NE(error([](json& t) {
              t["KernelSpecification"]["Arguments"][1]["FillType"] = "BinaryRaw";
            }).find(file + ": KernelSpecification.Arguments[1].FillType: 'BinaryRaw' is not supported"),
            std::string::npos);
  EXPECT_EQ(error([](json& t) { t["KernelSpecification"]["Arguments"][1]["Type"] = "half"; }),
            file +
                ": KernelSpecification.Arguments[1].Type: 'half' is not a type tuner's arguments have (int32, uint32, "
                "int64, uint64, float, double)");
  EXPECT_EQ(
      error([](json& t) { t["KernelSpecification"]["Arguments"][1]["Size"] = "ProblemSize[0] * tile_size"; }),
      file +
          ": KernelSpecification.Arguments[1].Size: 'ProblemSize[0] * tile_size': 'tile_size' is a tuning parameter, "
          "and this value may depend on the problem size only (max(tile_size) is the largest of its values)");
  EXPECT_EQ(error([](json& t) {
              t["KernelSpecification"]["KernelFile"] = "missing.cu";
            }).find(file + ": KernelSpecification.KernelFile: 'missing.cu' is not there"),
            0u);
  EXPECT_EQ(error([](json& t) { t["KernelSpecification"].erase("ProblemSize"); }),
            file +
                ": KernelSpecification.ProblemSize: missing: give the problem size, e.g. [4096, 4096] (Kernel Tuner "
                "needs it too)");
  EXPECT_EQ(
      error([](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = "block_size_x > 4096"; }),
      file +
          ": ConfigurationSpace.Conditions: no configuration satisfies every condition with at most 1024 threads per "
          "block (1000000 tried at most)");
  EXPECT_EQ(
      error([](json& t) { t["General"]["BenchmarkName"] = "vector-add"; }),
      file +
          ": General.BenchmarkName: 'vector-add' is not a template name (letters, digits and _, not starting with a "
          "digit); give one with --name");

  std::ofstream(dir.File("broken.json")) << "{\"ConfigurationSpace\": {";
  EXPECT_EQ(ImportError(dir.File("broken.json")).find(dir.File("broken.json") + ": not valid JSON: "), 0u);
}

// The command line: files written, --json, a second import of the same file, and bad input that
// writes nothing.
class T1ImportCommand : public ::testing::Test {
 protected:
  std::string Tuner(const std::string& args) const { return std::string(TUNER_EXECUTABLE) + " " + args; }
  TempDir dir_;
};

TEST_F(T1ImportCommand, WritesATemplateTheOtherCommandsTake) {
  const std::string out = dir_.File("kernels");
  const auto result = RunCommand(Tuner("import t1 " + kFixtures + "/vector_add.json --output " + out + " --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["name"], "vector_add");
  EXPECT_EQ(doc["candidates"], 22);
  EXPECT_EQ(doc["constraints"][0]["template"], "block_size_x * tile_size <= 2048 && block_size_x <= 1024");
  EXPECT_TRUE(fs::exists(out + "/vector_add.toml"));
  const auto kernels = RunCommand(Tuner("kernels vector_add --templates " + out));
  EXPECT_EQ(kernels.exit_code, 0) << kernels.err;
  const auto again = RunCommand(Tuner("import t1 " + kFixtures + "/vector_add.json --output " + out));
  EXPECT_EQ(again.exit_code, 0) << again.err;  // the same files: nothing to refuse
  EXPECT_NE(again.out.find("tune it with: tuner tune vector_add --templates " + out), std::string::npos);
}

TEST_F(T1ImportCommand, BadInputWritesNothing) {
  const std::string out = dir_.File("kernels");
  const std::string bad = EditedFixture(
      dir_, "vector_add", [](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = "block_size_x | 1"; });
  for (const std::string& args : {"import t1 " + bad + " --output " + out,
                                  "import t1 " + kFixtures + "/vector_add.json --name matmul --output " + out,
                                  "import t3 " + kFixtures + "/vector_add.json --output " + out,
                                  "import t1 " + dir_.File("none.json") + " --output " + out}) {
    const auto result = RunCommand(Tuner(args));
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_FALSE(fs::exists(out)) << args;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
  // A file of the same name with other contents is never replaced.
  fs::create_directories(out);
  std::ofstream(out + "/vector_add.cu") << "// mine\n";
  const auto result = RunCommand(Tuner("import t1 " + kFixtures + "/vector_add.json --output " + out));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("vector_add.cu' is there with other contents"), std::string::npos) << result.err;
  EXPECT_EQ(ReadFileText(out + "/vector_add.cu"), "// mine\n");
  EXPECT_FALSE(fs::exists(out + "/vector_add.toml"));
}

}  // namespace
}  // namespace tuner
