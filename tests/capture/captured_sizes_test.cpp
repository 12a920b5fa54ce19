// A capture of several sizes (capture/captured_sizes.*) without a GPU: the launch's own work is
// faked (host buffers written as the launch would write them), and the tuner loads the result as
// it is: every size's data, lengths as expressions over the sizes, --sizes captured.
#include "captured_sizes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

#include "db_test_util.h"
#include "npy.h"
#include "template/data_files.h"
#include "template/template_spec.h"

namespace tuner::capture {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;

// A histogram of N values into BINS bins: bins is InOut, data In, n a scalar.
CapturedLaunch FirstLaunch(long long n, long long bins, bool bins_zero = true) {
  CapturedLaunch l;
  l.name = "hist";
  l.kernel = "hist";
  l.source = "hist.cu";
  l.sizes = {{"N", n}, {"BINS", bins}};
  l.params = {{"BLOCK", 256, {128, 512}}};
  l.grid = {"cdiv(N, BLOCK)"};
  l.block = {"BLOCK"};
  l.geometry_from_application = true;
  l.args = {{"bins", "<u4", ArgRole::kInOut, static_cast<std::uint64_t>(bins), "", bins_zero},
            {"data", "<u4", ArgRole::kIn, static_cast<std::uint64_t>(n), "", false},
            {"n", "<i4", ArgRole::kScalar, 1, std::to_string(n), false}};
  l.provenance = "from a test";
  return l;
}

void WriteArray(CaptureFolder& folder, const std::string& file, const std::vector<std::uint32_t>& values) {
  auto writer = folder.NewArray(file, "<u4", values.size());
  writer->Write(values.data(), values.size() * 4);
  writer->Close();
}

// What the launch writes for a histogram of n values (all in bin 1) into `bins` bins starting at `start`.
std::vector<CapturedArg> FakeLaunch(CaptureFolder& folder, long long n, long long bins, std::uint32_t start = 0) {
  WriteArray(folder, InputFile("bins"), std::vector<std::uint32_t>(static_cast<std::size_t>(bins), start));
  WriteArray(folder, InputFile("data"), std::vector<std::uint32_t>(static_cast<std::size_t>(n), 1));
  std::vector<std::uint32_t> out(static_cast<std::size_t>(bins), start);
  out[1] += static_cast<std::uint32_t>(n);
  WriteArray(folder, ExpectedFile("bins"), out);
  return {{"bins", "<u4", ArgRole::kInOut, static_cast<std::uint64_t>(bins), "", start == 0},
          {"data", "<u4", ArgRole::kIn, static_cast<std::uint64_t>(n), "", false},
          {"n", "<i4", ArgRole::kScalar, 1, std::to_string(n), false}};
}

class CapturedSizesTest : public ::testing::Test {
 protected:
  // The first size, committed as Launch commits it (the zero InOut input removed).
  void CaptureFirst(long long n, long long bins) {
    kernel_.launch = FirstLaunch(n, bins);
    ASSERT_EQ(ClaimSize(kernel_, SizeKey(kernel_.launch.sizes)), SizeClaim::kFirst);
    CaptureFolder folder(dir_.File(""), "hist");
    FakeLaunch(folder, n, bins);
    folder.Remove(InputFile("bins"));
    folder.WriteText("hist.cu", "extern \"C\" __global__ void hist(unsigned* bins, const unsigned* data, int n) {}\n");
    folder.WriteText("hist.toml", DescriptionToml(kernel_.launch));
    kernel_.folder = folder.Commit();
  }
  std::string Add(long long n, long long bins, std::uint32_t start = 0) {
    return AddFurtherSize(kernel_, {{{"N", n}, {"BINS", bins}}, {}, ""},
                          [&](CaptureFolder& folder) { return FakeLaunch(folder, n, bins, start); });
  }
  std::string Description() const { return db::testing::ReadBytes(kernel_.folder + "/hist.toml"); }

  TempDir dir_;
  KernelCapture kernel_;
};

TEST_F(CapturedSizesTest, EachSizeIsClaimedOnceAndAtMostTheBoundAreCaptured) {
  KernelCapture k;
  EXPECT_EQ(ClaimSize(k, "1024"), SizeClaim::kFirst);
  EXPECT_EQ(ClaimSize(k, "2048"), SizeClaim::kFirst);  // the first failed: the next new size tries again
  k.folder = "capture-hist";
  EXPECT_EQ(ClaimSize(k, "1024"), SizeClaim::kSeen);
  EXPECT_EQ(ClaimSize(k, "4096"), SizeClaim::kFurther);
  k.launch.more_sizes.resize(kMaxCapturedSizes - 1);
  EXPECT_EQ(ClaimSize(k, "8192"), SizeClaim::kOverBound);
  EXPECT_EQ(ClaimSize(k, "8192"), SizeClaim::kSeen);
}

TEST_F(CapturedSizesTest, OneSizeIsTheCaptureOfOldWithLiteralLengths) {
  CaptureFirst(1024, 256);
  const std::string toml = Description();
  EXPECT_NE(toml.find("length = \"1024\""), std::string::npos) << toml;
  EXPECT_EQ(toml.find("data_size"), std::string::npos) << toml;
  EXPECT_FALSE(fs::exists(kernel_.folder + "/sizes"));
}

TEST_F(CapturedSizesTest, FurtherSizesAreAddedAndTheTunerTakesThemAsTheyAre) {
  CaptureFirst(1024, 256);
  EXPECT_EQ(ClaimSize(kernel_, "4096x64"), SizeClaim::kFurther);
  EXPECT_EQ(Add(4096, 64), kernel_.folder + "/sizes/4096x64");
  EXPECT_EQ(Add(65536, 256), kernel_.folder + "/sizes/65536x256");
  const std::string toml = Description();
  EXPECT_NE(toml.find("length = \"BINS\"\noutput = true\ninit = \"zero\"  # it held zeros before the application's "
                      "launch at every size"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("length = \"N\"\ninit = \"file:data/data.npy\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("value = \"N\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("bytes = \"8 * BINS + 4 * N\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("[[data_size]]\nsize = \"4096x64\"\nfolder = \"sizes/4096x64\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("--sizes captured"), std::string::npos) << toml;

  const TemplateSpec spec = LoadTemplateFile(kernel_.folder + "/hist.toml");
  const std::vector<ProblemSize> sizes = SizesWithData(spec);
  ASSERT_EQ(sizes.size(), 3u);
  EXPECT_EQ(sizes[1].Key(), "4096x64");
  for (const ProblemSize& size : sizes) EXPECT_NO_THROW(CheckDataFiles(SpecAtSize(spec, size), size)) << size.Key();
  EXPECT_EQ(SpecAtSize(spec, sizes[2]).args[1].file, kernel_.folder + "/sizes/65536x256/data/data.npy");
}

TEST_F(CapturedSizesTest, AnInOutBufferThatHeldDataAtALaterSizeGetsAFileOfZerosAtTheFirst) {
  CaptureFirst(1024, 256);
  ASSERT_FALSE(fs::exists(kernel_.folder + "/data/bins.npy"));
  Add(4096, 64, 5);  // the bins held fives before this launch
  const std::string toml = Description();
  EXPECT_NE(
      toml.find("name = \"bins\"\ntype = \"uint\"\nlength = \"BINS\"\noutput = true\ninit = \"file:data/bins.npy\""),
      std::string::npos)
      << toml;
  const npy::Header header = npy::ReadHeader(kernel_.folder + "/data/bins.npy");
  const std::string zeros = npy::ReadAll(kernel_.folder + "/data/bins.npy", header);
  EXPECT_EQ(header.Count(), 256u);
  EXPECT_EQ(zeros, std::string(256 * 4, '\0'));
  const TemplateSpec spec = LoadTemplateFile(kernel_.folder + "/hist.toml");
  for (const ProblemSize& size : SizesWithData(spec))
    EXPECT_NO_THROW(CheckDataFiles(SpecAtSize(spec, size), size)) << size.Key();
}

TEST_F(CapturedSizesTest, ALaunchWithOtherArgumentsIsNotAddedAndTheCaptureStaysAsItWas) {
  CaptureFirst(1024, 256);
  const std::string before = Description();
  try {
    AddFurtherSize(kernel_, {{{"N", 4096}, {"BINS", 64}}, {}, ""}, [&](CaptureFolder& folder) {
      std::vector<CapturedArg> args = FakeLaunch(folder, 4096, 64);
      args[1].descr = "<f4";
      return args;
    });
    FAIL() << "no error";
  } catch (const CaptureError& e) {
    EXPECT_NE(std::string(e.what()).find("are not those of the first captured size (bins <u4, data <u4, n <i4)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(Description(), before);
  EXPECT_TRUE(fs::is_empty(kernel_.folder + "/sizes"));  // no size folder, not even a partial one
  EXPECT_TRUE(kernel_.launch.more_sizes.empty());
}

TEST_F(CapturedSizesTest, ASizeFolderIsNeverReplaced) {
  CaptureFirst(1024, 256);
  fs::create_directories(kernel_.folder + "/sizes/4096x64");
  std::ofstream(kernel_.folder + "/sizes/4096x64/mine.txt") << "kept";
  EXPECT_THROW(Add(4096, 64), CaptureError);
  EXPECT_TRUE(fs::exists(kernel_.folder + "/sizes/4096x64/mine.txt"));
  EXPECT_EQ(Description().find("data_size"), std::string::npos);
}

TEST_F(CapturedSizesTest, ValuesNoProductOfTheSizesGivesAreMarkedForTheUser) {
  CaptureFirst(1024, 256);
  AddFurtherSize(kernel_, {{{"N", 4096}, {"BINS", 64}}, {}, ""}, [&](CaptureFolder& folder) {
    std::vector<CapturedArg> args = FakeLaunch(folder, 4096, 64);
    args[2].value = "7";  // n is neither N nor constant
    return args;
  });
  const std::string toml = Description();
  EXPECT_NE(
      toml.find(
          "# SCALAR n: it changes with the size (1024 at 1024x256, 7 at 4096x64) as no product of the sizes does"),
      std::string::npos)
      << toml;
  EXPECT_NE(toml.find("value = \"1024\""), std::string::npos) << toml;
}

}  // namespace
}  // namespace tuner::capture
