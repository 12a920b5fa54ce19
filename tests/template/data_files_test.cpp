// Templates that read .npy files (init = "file:...", [check] expected): loading, length checks at
// the problem size, the version, and `tuner tune` refusing bad files with exit 2 before any work.
#include "template/data_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "capture_description.h"
#include "capture_folder.h"
#include "cli_runner.h"
#include "base/errors.h"
#include "db_test_util.h"
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
    std::ofstream(dir_.File("scale.cu"))
        << "extern \"C\" __global__ void scale(float* o, const float* i) { o[threadIdx.x] = 2 * i[threadIdx.x]; }\n"
        << "extern \"C\" __global__ void scale_reference(float* o, const float* i) { o[threadIdx.x] = 2 * "
           "i[threadIdx.x]; }\n";
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
  EXPECT_NE(message.find(dir_.File("scale.toml") + ":18: arg[1].init: " + dir_.File("data/in.npy")), std::string::npos)
      << message;
  EXPECT_NE(message.find("dtype is int32 ('<i4'), expected float32 ('<f4')"), std::string::npos) << message;
}

// Every element type reads its files: NumPy's code (or ml_dtypes' name), and for bfloat16 and fp8
// the raw bytes np.save writes; an ml_dtypes format of other numbers is refused by name.
TEST_F(DataFilesTest, EveryElementTypeReadsItsFilesAndForeignFormatsAreRefusedByName) {
  for (const ElementType& e : ElementTypes()) {
    for (const std::string& descr : AcceptedNpyDescrs(e.type)) {
      std::string toml = kScale;
      for (int i = 0; i < 2; ++i)
        toml.replace(toml.find("type = \"float\""), 14, "type = \"" + std::string(e.name) + "\"");
      for (const char* name : {"data/in.npy", "expected/out.npy"}) {
        std::filesystem::remove(dir_.File(name));
        npy::WriteFile(dir_.File(name), descr, std::vector<char>(8 * e.bytes).data(), 8);
      }
      EXPECT_EQ(LoadError(toml), "") << e.name << " " << descr;
      if (e.type != ScalarType::kFp8E4m3) continue;
      std::filesystem::remove(dir_.File("data/in.npy"));
      npy::WriteFile(dir_.File("data/in.npy"), "<f2", std::vector<char>(16).data(), 8);
      EXPECT_NE(LoadError(toml).find("dtype is float16 ('<f2'), expected float8_e4m3fn (ml_dtypes) or raw bytes "
                                     "('<V1')"),
                std::string::npos)
          << LoadError(toml);
    }
  }
}

TEST_F(DataFilesTest, MissingAndTruncatedFilesAreNamed) {
  std::filesystem::remove(dir_.File("expected/out.npy"));
  EXPECT_NE(LoadError().find("check.expected.out: " + dir_.File("expected/out.npy") + ": cannot read the file"),
            std::string::npos)
      << LoadError();
  Floats("expected/out.npy", 8);
  std::filesystem::resize_file(dir_.File("expected/out.npy"), 100);
  EXPECT_NE(LoadError().find("truncated"), std::string::npos) << LoadError();
}

TEST_F(DataFilesTest, ExpectedFilesAreForOutputsOnly) {
  std::string toml = kScale;
  toml.replace(toml.find("{ out = "), 8, "{ in = ");
  EXPECT_NE(LoadError(toml).find("check.expected.in: 'in' is not an output buffer argument"), std::string::npos)
      << LoadError(toml);
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
    EXPECT_NE(message.find(dir_.File("expected/out.npy") +
                           ": the expected contents of 'out': shape (8,) holds 8 element(s), expected 16"),
              std::string::npos)
        << message;
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
  for (const auto& [file, values] :
       {std::pair{capture::InputFile("data"), &data}, {capture::ExpectedFile("bins"), &bins}}) {
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

// [[data_size]]: another size's data in a folder of its own, at the same relative paths.
class DataSizesTest : public DataFilesTest {
 protected:
  void SetUp() override {
    DataFilesTest::SetUp();
    std::filesystem::create_directories(dir_.File("sizes/16/data"));
    std::filesystem::create_directories(dir_.File("sizes/16/expected"));
    Floats("sizes/16/data/in.npy", 16);
    Floats("sizes/16/expected/out.npy", 16);
  }
  static std::string WithDataSize(const std::string& table = "size = \"16\"\nfolder = \"sizes/16\"\n") {
    return std::string(kScale) + "[[data_size]]\n" + table;
  }
  std::string Tune(const std::string& options) {
    const auto r = testing::RunTuner("tune scale --templates " + dir_.File("") + " " + options + " --db " +
                                     dir_.File("results.db"));
    EXPECT_FALSE(std::filesystem::exists(dir_.File("results.db"))) << options;
    return std::to_string(r.exit_code) + " " + r.err;
  }
};

TEST_F(DataSizesTest, EachSizeReadsItsOwnFolder) {
  const TemplateSpec spec = LoadTemplateFile(Description(WithDataSize()));
  ASSERT_EQ(spec.data_sizes.size(), 1u);
  EXPECT_EQ(spec.data_sizes[0].size_key, "16");
  const TemplateSpec at_16 = SpecAtSize(spec, ParseProblemSize(spec, "16"));
  EXPECT_EQ(at_16.args[1].file, dir_.File("sizes/16/data/in.npy"));
  EXPECT_EQ(at_16.check.expected.at("out"), dir_.File("sizes/16/expected/out.npy"));
  EXPECT_EQ(at_16.hash, spec.hash);  // one version for every size: results of all sizes are current together
  EXPECT_NO_THROW(CheckDataFiles(at_16, ParseProblemSize(spec, "16")));
  EXPECT_EQ(SpecAtSize(spec, ParseProblemSize(spec, "")).args[1].file, dir_.File("data/in.npy"));
  const std::vector<ProblemSize> sizes = SizesWithData(spec);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0].Key(), "8");
  EXPECT_EQ(sizes[1].Key(), "16");
}

TEST_F(DataSizesTest, ASizeWithoutDataIsRefusedNamingTheSizesThatHaveIt) {
  const TemplateSpec spec = LoadTemplateFile(Description(WithDataSize()));
  try {
    SpecAtSize(spec, ParseProblemSize(spec, "32"));
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("scale has no data files for size 32: its data (" + dir_.File("scale.toml") +
                                         ") is for the sizes 8, 16"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(DataSizesTest, AnotherSizesDataIsAnotherVersion) {
  const std::string before = LoadTemplateFile(Description(WithDataSize())).hash;
  Floats("sizes/16/data/in.npy", 16, 5.0f);
  EXPECT_NE(LoadTemplateFile(Description(WithDataSize())).hash, before);
}

TEST_F(DataSizesTest, BadTablesAreNamed) {
  EXPECT_NE(LoadError(WithDataSize("size = \"16\"\nfolder = \"sizes/32\"\n"))
                .find("data_size[0].folder: '" + dir_.File("sizes/32") + "' is not a folder"),
            std::string::npos)
      << LoadError(WithDataSize("size = \"16\"\nfolder = \"sizes/32\"\n"));
  const std::string twice = WithDataSize() + "[[data_size]]\nsize = \"16\"\nfolder = \"sizes/16\"\n";
  EXPECT_NE(LoadError(twice).find("data_size[1].size: 16 is listed twice"), std::string::npos) << LoadError(twice);
  const std::string defaults = WithDataSize("size = \"8\"\nfolder = \"sizes/16\"\n");
  EXPECT_NE(LoadError(defaults).find("data_size[0].size: 8 is the default size"), std::string::npos)
      << LoadError(defaults);
  const std::string two = WithDataSize("size = \"16x2\"\nfolder = \"sizes/16\"\n");
  EXPECT_NE(LoadError(two).find("data_size[0].size: '16x2' gives 2 number(s) for the 1 size variable(s)"),
            std::string::npos)
      << LoadError(two);
  const std::string form = WithDataSize("size = \"16x\"\nfolder = \"sizes/16\"\n");
  EXPECT_NE(LoadError(form).find("data_size[0].size: '16x': expected whole numbers"), std::string::npos)
      << LoadError(form);
  const std::string unknown = WithDataSize("size = \"16\"\nfolders = \"sizes/16\"\n");
  EXPECT_NE(LoadError(unknown).find("folders"), std::string::npos) << LoadError(unknown);
  std::filesystem::remove(dir_.File("sizes/16/data/in.npy"));
  const std::vector<std::int32_t> ints(16);
  npy::WriteFile(dir_.File("sizes/16/data/in.npy"), "<i4", ints.data(), 16);
  EXPECT_NE(LoadError(WithDataSize())
                .find("data_size[0].folder: " + dir_.File("sizes/16/data/in.npy") +
                      ": the initial contents at 16 of 'in' (float): dtype is int32"),
            std::string::npos)
      << LoadError(WithDataSize());
}

TEST_F(DataSizesTest, ATemplateWithoutDataFilesHasNoDataSizes) {
  std::string toml = WithDataSize();
  toml.replace(toml.find("init = \"file:data/in.npy\"\n"), 26, "init = \"random\"\n");
  toml.replace(toml.find("expected = { out = \"expected/out.npy\" }\n"), 40, "kernel = \"scale_reference\"\n");
  EXPECT_NE(LoadError(toml).find("data_size[0]: the template reads no data files"), std::string::npos)
      << LoadError(toml);
}

// --sizes: every bad list is exit 2 before any GPU or database.
TEST_F(DataSizesTest, TuneRefusesBadSizeListsWithExitTwo) {
  Description(WithDataSize());
  EXPECT_EQ(Tune("--size 8 --sizes 8,16").substr(0, 2), "2 ") << Tune("--size 8 --sizes 8,16");
  EXPECT_NE(Tune("--size 8 --sizes 8,16").find("--size and --sizes: give one of them, not both"), std::string::npos);
  EXPECT_NE(Tune("--sizes ''").find("2 tuner tune: --sizes '': empty"), std::string::npos) << Tune("--sizes ''");
  EXPECT_NE(Tune("--sizes 8,,16").find("--sizes '8,,16': an empty item"), std::string::npos) << Tune("--sizes 8,,16");
  EXPECT_NE(Tune("--sizes 8,16x").find("--sizes '8,16x': '16x': expected whole numbers"), std::string::npos)
      << Tune("--sizes 8,16x");
  EXPECT_NE(Tune("--sizes 8,16,8").find("'8' and '8' are both the size 8"), std::string::npos)
      << Tune("--sizes 8,16,8");
  EXPECT_NE(Tune("--sizes 8,32").find("scale has no data files for size 32"), std::string::npos)
      << Tune("--sizes 8,32");
  EXPECT_NE(Tune("--sizes 8,16x2").find("scale has 1 size variable(s)"), std::string::npos) << Tune("--sizes 8,16x2");
  EXPECT_NE(Tune("--sizes captured --gpus all").find("--sizes and --gpus"), std::string::npos)
      << Tune("--sizes captured --gpus all");
  Floats("sizes/16/expected/out.npy", 15);  // a wrong length at one of the sizes
  EXPECT_NE(Tune("--sizes captured").find("holds 15 element(s), expected 16"), std::string::npos)
      << Tune("--sizes captured");
}

}  // namespace
}  // namespace tuner
