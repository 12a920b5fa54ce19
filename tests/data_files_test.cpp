// Templates that read .npy files (init = "file:...", [check] expected): loading, length checks at
// the problem size, the version, and `tuner tune` refusing bad files with exit 2 before any work.
#include "data_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "capture_description.h"
#include "capture_folder.h"
#include "cli_runner.h"
#include "db_test_util.h"
#include "errors.h"
#include "npy.h"

namespace tuner {
namespace {

using db::testing::TempDir;

const char* kScale = R"toml(name = "scale"
kernel = "scale"
[[size]]
name = "N"
default = 8
[launch]
grid = ["1"]
block = ["N"]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[[arg]]
name = "in"
type = "float"
length = "N"
init = "file:data/in.npy"
[check]
expected = { out = "expected/out.npy" }
atol = 0
rtol = 0
[work]
bytes = "8 * N"
)toml";

class DataFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.File("data"));
    std::filesystem::create_directories(dir_.File("expected"));
    std::ofstream(dir_.File("scale.cu")) << "extern \"C\" __global__ void scale(float* o, const float* i) { o[threadIdx.x] = 2 * i[threadIdx.x]; }\n"
                                          << "extern \"C\" __global__ void scale_reference(float* o, const float* i) { o[threadIdx.x] = 2 * i[threadIdx.x]; }\n";
    Floats("data/in.npy", 8);
    Floats("expected/out.npy", 8);
  }
  void Floats(const std::string& name, std::size_t count, float value = 1.0f) {
    std::filesystem::remove(dir_.File(name));
    const std::vector<float> values(count, value);
    npy::WriteFile(dir_.File(name), "<f4", values.data(), count);
  }
  std::string Description(const std::string& toml = kScale) {
    std::ofstream(dir_.File("scale.toml")) << toml;
    return dir_.File("scale.toml");
  }
  std::string LoadError(const std::string& toml = kScale) {
    try {
      LoadTemplateFile(Description(toml));
    } catch (const TemplateError& e) {
      return e.what();
    }
    return "";
  }

  TempDir dir_;
};

TEST_F(DataFilesTest, FilesAreResolvedBesideTheDescriptionAndReplaceTheReferenceKernel) {
  const TemplateSpec spec = LoadTemplateFile(Description());
  EXPECT_EQ(spec.args[1].init, BufferInit::kFile);
  EXPECT_EQ(spec.args[1].file, dir_.File("data/in.npy"));
  EXPECT_EQ(spec.check.expected.at("out"), dir_.File("expected/out.npy"));
  EXPECT_EQ(spec.check.kernel, "");  // every output has an expected file and no kernel was named
  EXPECT_EQ(DataFilesOf(spec), (std::vector<std::string>{dir_.File("data/in.npy"), dir_.File("expected/out.npy")}));
  EXPECT_NO_THROW(CheckDataFiles(spec, ParseProblemSize(spec, "")));
}

TEST_F(DataFilesTest, ANamedReferenceKernelIsKeptBesideTheExpectedFiles) {
  std::string toml = kScale;
  toml.replace(toml.find("[check]\n"), 8, "[check]\nkernel = \"scale_reference\"\n");
  EXPECT_EQ(LoadTemplateFile(Description(toml)).check.kernel, "scale_reference");
}

TEST_F(DataFilesTest, OtherDataIsAnotherTemplateVersion) {
  const std::string before = LoadTemplateFile(Description()).hash;
  Floats("data/in.npy", 8, 3.0f);
  EXPECT_NE(LoadTemplateFile(Description()).hash, before);
}

TEST_F(DataFilesTest, WrongTypeNamesTheDescriptionLineFileAndBothTypes) {
  std::filesystem::remove(dir_.File("data/in.npy"));
  const std::vector<std::int32_t> ints(8);
  npy::WriteFile(dir_.File("data/in.npy"), "<i4", ints.data(), 8);
  const std::string message = LoadError();
  EXPECT_NE(message.find(dir_.File("scale.toml") + ":18: arg[1].init: " + dir_.File("data/in.npy")), std::string::npos) << message;
  EXPECT_NE(message.find("dtype is int32 ('<i4'), expected float32 ('<f4')"), std::string::npos) << message;
}

TEST_F(DataFilesTest, MissingAndTruncatedFilesAreNamed) {
  std::filesystem::remove(dir_.File("expected/out.npy"));
  EXPECT_NE(LoadError().find("check.expected.out: " + dir_.File("expected/out.npy") + ": cannot read the file"), std::string::npos)
      << LoadError();
  Floats("expected/out.npy", 8);
  std::filesystem::resize_file(dir_.File("expected/out.npy"), 100);
  EXPECT_NE(LoadError().find("truncated"), std::string::npos) << LoadError();
}

TEST_F(DataFilesTest, ExpectedFilesAreForOutputsOnly) {
  std::string toml = kScale;
  toml.replace(toml.find("{ out = "), 8, "{ in = ");
  EXPECT_NE(LoadError(toml).find("check.expected.in: 'in' is not an output buffer argument"), std::string::npos) << LoadError(toml);
  toml = kScale;
  toml.replace(toml.find("file:data/in.npy"), 16, "file:");
  EXPECT_NE(LoadError(toml).find("arg[1].init: names no file"), std::string::npos) << LoadError(toml);
}

TEST_F(DataFilesTest, WrongLengthAtTheProblemSizeNamesBothCounts) {
  const TemplateSpec spec = LoadTemplateFile(Description());
  try {
    CheckDataFiles(spec, ParseProblemSize(spec, "16"));
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(dir_.File("expected/out.npy") + ": the expected contents of 'out': shape (8,) holds 8 element(s), expected 16"),
              std::string::npos) << message;
    EXPECT_NE(message.find("(length N at size 16)"), std::string::npos) << message;
  }
}

TEST_F(DataFilesTest, TuneRefusesBadFilesWithExitTwoAndStoresNothing) {
  Description();
  const std::string db = dir_.File("results.db");
  const auto wrong_size = testing::RunTuner("tune scale --templates " + dir_.File("") + " --size 9 --db " + db);
  EXPECT_EQ(wrong_size.exit_code, 2) << wrong_size.err;
  EXPECT_NE(wrong_size.err.find("holds 8 element(s), expected 9"), std::string::npos) << wrong_size.err;
  Floats("data/in.npy", 8);
  std::filesystem::resize_file(dir_.File("data/in.npy"), 90);
  const auto truncated = testing::RunTuner("tune scale --templates " + dir_.File("") + " --db " + db);
  EXPECT_EQ(truncated.exit_code, 2) << truncated.err;
  EXPECT_NE(truncated.err.find("truncated"), std::string::npos) << truncated.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

// The description a capture writes is a template the tuner loads as it is.
TEST_F(DataFilesTest, ACapturesDescriptionLoadsAsItIs) {
  capture::CapturedLaunch l;
  l.name = "hist";
  l.kernel = "hist";
  l.source = "hist.cu";
  l.sizes = {{"N", 4}};
  l.grid = {"1"};
  l.block = {"4"};
  l.args = {{"bins", "<u4", capture::ArgRole::kInOut, 2, "", true},
            {"data", "<u4", capture::ArgRole::kIn, 4, "", false},
            {"n", "<i4", capture::ArgRole::kScalar, 1, "4", false}};
  l.provenance = "from a test";
  capture::CaptureFolder folder(dir_.File(""), "hist");
  const std::vector<std::uint32_t> data = {0, 1, 1, 1}, bins = {1, 3};
  for (const auto& [file, values] : {std::pair{capture::InputFile("data"), &data}, {capture::ExpectedFile("bins"), &bins}}) {
    auto writer = folder.NewArray(file, "<u4", values->size());
    writer->Write(values->data(), values->size() * 4);
    writer->Close();
  }
  folder.WriteText("hist.cu", "extern \"C\" __global__ void hist(unsigned* bins, const unsigned* data, int n) {}\n");
  folder.WriteText("hist.toml", capture::DescriptionToml(l));
  const std::string path = folder.Commit();
  const TemplateSpec spec = LoadTemplateFile(path + "/hist.toml");
  EXPECT_EQ(spec.name, "hist");
  EXPECT_EQ(spec.args[0].init, BufferInit::kZero);
  EXPECT_TRUE(spec.args[0].output);
  EXPECT_EQ(spec.args[1].file, path + "/data/data.npy");
  EXPECT_EQ(spec.check.expected.at("bins"), path + "/expected/bins.npy");
  EXPECT_NO_THROW(CheckDataFiles(spec, ParseProblemSize(spec, "")));
}

}  // namespace
}  // namespace tuner
