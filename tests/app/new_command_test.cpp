// tuner new: a first template from a kernel's declaration, in a file with host code and headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db_test_util.h"
#include "template/template_spec.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using nlohmann::json;
using testing::ReadFileText;
using testing::RunTuner;

const std::string kKernelFile = std::string(TUNER_FIXTURES_DIR) + "/new/saxpy_app.cu";

int CountLines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(NewCommand, APlainKernelAmongHostCodeBecomesATemplateThatLoads) {
  TempDir dir;
  const std::string folder = dir.File("kernels"), before = ReadFileText(kKernelFile);
  const auto r = RunTuner("new saxpy --from " + kKernelFile + " --kernel saxpy --templates " + folder + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["description"], folder + "/saxpy.toml");
  EXPECT_EQ(out["kernel"], "saxpy");
  EXPECT_EQ(out["line"], 17);
  EXPECT_EQ(out["size"]["name"], "N");
  const std::vector<std::string> roles = {"size", "scalar", "input", "inout"};  // y[i] = axpy(a, x[i], y[i])
  ASSERT_EQ(out["args"].size(), roles.size()) << r.out;
  for (std::size_t i = 0; i < roles.size(); ++i) EXPECT_EQ(out["args"][i]["role"], roles[i]) << i;
  for (const json& p : out["params"]) EXPECT_LE(p["value"].get<long long>(), 512);  // __launch_bounds__(512)
  EXPECT_EQ(ReadFileText(kKernelFile), before);                                     // referenced, never changed
  const std::string description = ReadFileText(folder + "/saxpy.toml");
  EXPECT_EQ(fs::canonical(LoadTemplateFile(folder + "/saxpy.toml").source_path), fs::canonical(kKernelFile))
      << description;
  EXPECT_NE(description.find("init = \"random\"  # read and written"), std::string::npos) << description;
  EXPECT_NE(description.find("reference = \"own_configuration\""), std::string::npos);
  const auto kernels = RunTuner("kernels saxpy --templates " + folder + " --json");  // the tool's own check
  ASSERT_EQ(kernels.exit_code, 0) << kernels.err;
  EXPECT_EQ(json::parse(kernels.out)["templates"][0]["name"], "saxpy");
}

TEST(NewCommand, ATemplateKernelsIntegerArgumentsBecomeParameters) {
  TempDir dir;
  const auto r =
      RunTuner("new scaled --from " + kKernelFile + " --kernel 'scale<float, 256>' --templates " + dir.File("k"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + dir.File("k") + "/scaled.toml for scale<float, BLOCK>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tuner tune scaled --templates " + dir.File("k")), std::string::npos) << r.out;
  const std::string description = ReadFileText(dir.File("k") + "/scaled.toml");
  EXPECT_NE(description.find("[[param]]\nname = \"BLOCK\"\nvalues = [256]"), std::string::npos) << description;
  EXPECT_NE(description.find("block = [\"BLOCK\"]"), std::string::npos) << description;
  EXPECT_NE(description.find("name = \"count\"  # unsigned\ntype = \"uint\"\nvalue = \"N\""), std::string::npos)
      << description;
  const auto kernels = RunTuner("kernels scaled --templates " + dir.File("k"));
  EXPECT_EQ(kernels.exit_code, 0) << kernels.err;
}

TEST(NewCommand, AnExistingNameIsReplacedOnlyWithForce) {
  TempDir dir;
  const std::string args = "new saxpy --from " + kKernelFile + " --kernel saxpy --templates " + dir.File("k");
  ASSERT_EQ(RunTuner(args).exit_code, 0);
  fs::resize_file(dir.File("k/saxpy.toml"), 10);
  const auto again = RunTuner(args);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("saxpy.toml' is there already; give another NAME, or --force to replace it"),
            std::string::npos)
      << again.err;
  EXPECT_EQ(fs::file_size(dir.File("k/saxpy.toml")), 10u);
  EXPECT_EQ(RunTuner(args + " --force").exit_code, 0);
  EXPECT_GT(fs::file_size(dir.File("k/saxpy.toml")), 10u);
}

// Each refusal: exit 2, one line naming what is wrong, and no folder or file made.
TEST(NewCommand, BadInputIsRefusedWithNothingWritten) {
  TempDir dir;
  const std::string to = " --templates " + dir.File("k");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"new s --from " + kKernelFile + " --kernel saxpi" + to,
       "no __global__ function 'saxpi' (did you mean `saxpy`?)"},
      {"new s --from " + kKernelFile + " --kernel gemm" + to,
       "no __global__ function 'gemm'; its __global__ functions: saxpy scale pairs"},
      {"new s --from /no/such/file.cu --kernel saxpy" + to, "cannot read --from '/no/such/file.cu'"},
      {"new s --from " + kKernelFile + " --kernel pairs" + to,
       "kernel 'pairs': argument 'out' has type 'float2 *', which a description cannot pass"},
      {"new s --from " + kKernelFile + " --kernel scale" + to, "name it with its arguments"},
      {"new transpose --from " + kKernelFile + " --kernel saxpy" + to, "template name 'transpose' is taken by"},
      {"new 9lives --from " + kKernelFile + " --kernel saxpy" + to, "NAME '9lives' is not a template name"},
      {"new s --kernel saxpy" + to, "--from"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = RunTuner(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir.File("k"))) << args;
  }
}

TEST(NewCommand, AJsonErrorDocumentUnderJson) {
  TempDir dir;
  const auto r = RunTuner("new s --from " + kKernelFile + " --kernel saxpi --json --templates " + dir.File("k"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(json::parse(r.out)["error"].get<std::string>().find("did you mean `saxpy`?"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tuner
