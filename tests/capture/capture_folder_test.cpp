// The capture folder (capture/capture_folder.*): complete or absent, and never over an earlier one.
#include "capture_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace tuner::capture {
namespace {

namespace fs = std::filesystem;

class CaptureFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("capture-folder-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Read(const fs::path& path) const {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::size_t Entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {})); }

  fs::path dir_;
};

TEST_F(CaptureFolderTest, CommitMovesTheCompleteFolderIntoPlace) {
  CaptureFolder folder(dir_.string(), "hist");
  auto writer = folder.NewArray("data/in.npy", "<f4", 1);
  const float value = 2.5f;
  writer->Write(&value, sizeof value);
  writer->Close();
  folder.WriteText("hist.toml", "name = \"hist\"\n");
  const std::string path = folder.Commit();
  EXPECT_EQ(path, (dir_ / "capture-hist").string());
  EXPECT_TRUE(fs::is_regular_file(dir_ / "capture-hist" / "data" / "in.npy"));
  EXPECT_EQ(Read(dir_ / "capture-hist" / "hist.toml"), "name = \"hist\"\n");
  EXPECT_EQ(Entries(), 1u);  // no temporary folder left beside it
}

TEST_F(CaptureFolderTest, AnEarlierCaptureIsKeptAndTheNewOneTakesTheNextName) {
  fs::create_directories(dir_ / "capture-hist");
  std::ofstream(dir_ / "capture-hist" / "hist.toml") << "earlier";
  fs::create_directories(dir_ / "capture-hist-2");  // even an empty folder is not replaced
  CaptureFolder folder(dir_.string(), "hist");
  folder.WriteText("hist.toml", "later");
  EXPECT_EQ(folder.Commit(), (dir_ / "capture-hist-3").string());
  EXPECT_EQ(Read(dir_ / "capture-hist" / "hist.toml"), "earlier");
  EXPECT_TRUE(fs::is_empty(dir_ / "capture-hist-2"));
  EXPECT_EQ(Read(dir_ / "capture-hist-3" / "hist.toml"), "later");
}

TEST_F(CaptureFolderTest, AnAbandonedCaptureLeavesNothing) {
  {
    CaptureFolder folder(dir_.string(), "hist");
    folder.WriteText("hist.toml", "x");
  }
  EXPECT_EQ(Entries(), 0u);
}

TEST_F(CaptureFolderTest, MissingParentIsAnError) {
  EXPECT_THROW(CaptureFolder((dir_ / "absent").string(), "hist"), CaptureError);
}

TEST_F(CaptureFolderTest, SourceTravelsWithTheHeadersItIncludesFromBesideIt) {
  fs::create_directories(dir_ / "src" / "detail");
  std::ofstream(dir_ / "src" / "kernel.cu")
      << "#include \"common.cuh\"\n#include <cuda_fp16.h>\n#include \"detail/more.cuh\"\n";
  std::ofstream(dir_ / "src" / "common.cuh") << "// common\n";
  std::ofstream(dir_ / "src" / "detail" / "more.cuh") << "#include \"deepest.cuh\"\n";
  std::ofstream(dir_ / "src" / "detail" / "deepest.cuh") << "// deepest\n";
  fs::create_directories(dir_ / "out");
  CaptureFolder folder((dir_ / "out").string(), "k");
  EXPECT_EQ(folder.CopySource((dir_ / "src" / "kernel.cu").string()), "kernel.cu");
  const fs::path captured = folder.Commit();
  EXPECT_TRUE(fs::is_regular_file(captured / "kernel.cu"));
  EXPECT_EQ(Read(captured / "common.cuh"), "// common\n");
  EXPECT_EQ(Read(captured / "detail" / "deepest.cuh"), "// deepest\n");
  EXPECT_FALSE(fs::exists(captured / "cuda_fp16.h"));
}

// A header from above the source's folder is copied inside the capture, never beside it,
// and the include that names it is rewritten to its place there.
TEST_F(CaptureFolderTest, AHeaderFromAboveTheSourceIsCopiedInsideTheCapture) {
  fs::create_directories(dir_ / "app" / "kernels");
  fs::create_directories(dir_ / "lib");
  std::ofstream(dir_ / "app" / "kernels" / "k.cu")
      << "#include \"../common.cuh\"\n#include \"../../lib/common.cuh\"\n#include \"own.cuh\"\nK\n";
  std::ofstream(dir_ / "app" / "kernels" / "own.cuh") << "// own\n";
  std::ofstream(dir_ / "app" / "common.cuh") << "#include \"../lib/util.cuh\"\n// app common";
  std::ofstream(dir_ / "lib" / "common.cuh") << "// lib common\n";
  std::ofstream(dir_ / "lib" / "util.cuh") << "// util\n";
  fs::create_directories(dir_ / "out");
  CaptureFolder folder((dir_ / "out").string(), "k");
  EXPECT_EQ(folder.CopySource((dir_ / "app" / "kernels" / "k.cu").string()), "k.cu");
  const fs::path captured = folder.Commit();
  EXPECT_EQ(Read(captured / "k.cu"),
            "#include \"included/common.cuh\"\n#include \"included/2/common.cuh\"\n#include \"own.cuh\"\nK\n");
  EXPECT_EQ(Read(captured / "own.cuh"), "// own\n");
  EXPECT_EQ(Read(captured / "included" / "common.cuh"), "#include \"util.cuh\"\n// app common");
  EXPECT_EQ(Read(captured / "included" / "2" / "common.cuh"), "// lib common\n");
  EXPECT_EQ(Read(captured / "included" / "util.cuh"), "// util\n");
  std::vector<std::string> beside;
  for (const auto& entry : fs::directory_iterator(dir_ / "out")) beside.push_back(entry.path().filename().string());
  EXPECT_EQ(beside, std::vector<std::string>{captured.filename().string()});
}

TEST_F(CaptureFolderTest, MissingSourceIsNamed) {
  CaptureFolder folder(dir_.string(), "k");
  try {
    folder.CopySource((dir_ / "nope.cu").string());
    FAIL() << "no error";
  } catch (const CaptureError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.cu: cannot read the kernel source"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tuner::capture
