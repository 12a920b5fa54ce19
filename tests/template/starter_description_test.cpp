#include "template/starter_description.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/errors.h"
#include "db_test_util.h"
#include "template/template_spec.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;

// The kernel file in dir/src, the request for a template in dir/kernels.
StarterRequest RequestFor(const TempDir& dir, const std::string& source, const std::string& expression) {
  fs::create_directories(dir.File("src"));
  std::ofstream(dir.File("src/k.cu")) << source;
  StarterRequest request{"first", dir.File("kernels"), dir.File("src/k.cu"), source, {}};
  request.guess = GuessKernel(request.kernel_file, source, expression);
  return request;
}

TEST(StarterDescription, LoadsAsTheToolReadsItWithTheSourceWhereItIs) {
  TempDir dir;
  const std::string source =
      "__global__ void add(const float* a, const __half* b, double* out, float alpha, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = alpha * a[i] + float(b[i]);\n}\n";
  const StarterTemplate written = WriteStarterTemplate(RequestFor(dir, source, "add"));
  EXPECT_EQ(written.source, "../src/k.cu");
  const TemplateSpec spec = LoadTemplateFile(dir.File("kernels/first.toml"));
  EXPECT_EQ(fs::path(spec.source_path).lexically_normal(), fs::path(dir.File("src/k.cu")));
  EXPECT_EQ(spec.kernel, "add");
  ASSERT_EQ(spec.sizes.size(), 1u);
  EXPECT_EQ(spec.sizes[0].name, "N");
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].name, "BLOCK_SIZE");
  EXPECT_EQ(spec.params[0].values, (std::vector<long long>{128, 256, 512}));
  EXPECT_EQ(spec.launch.block, (std::vector<std::string>{"BLOCK_SIZE"}));
  ASSERT_EQ(spec.args.size(), 5u);
  EXPECT_EQ(spec.args[0].init, BufferInit::kRandom);
  EXPECT_FALSE(spec.args[0].output);
  EXPECT_EQ(spec.args[1].type, ScalarType::kHalf);
  EXPECT_TRUE(spec.args[2].output);
  EXPECT_EQ(spec.args[2].init, BufferInit::kPoison);
  EXPECT_EQ(spec.args[3].value, "1");
  EXPECT_EQ(spec.args[4].value, "N");
  EXPECT_TRUE(spec.check.own_configuration);
  EXPECT_EQ(spec.work.bytes, "14 * N");  // 4 + 2 + 8 bytes per element
}

TEST(StarterDescription, EveryGuessSaysWhatToEdit) {
  TempDir dir;
  const StarterRequest request =
      RequestFor(dir, "__global__ void inc(float* x, int n) { if (threadIdx.x < n) x[threadIdx.x] += 1; }", "inc");
  const std::string text = StarterDescription(request, "../src/k.cu").text;
  for (const char* comment : {"# Each value below is a guess", "# The problem size:", "# Parameters to tune:",
                              "# One thread per element, a guess", "init = \"random\"  # read and written",
                              "kernel = \"inc_reference\"", "# Each buffer read or written once"})
    EXPECT_NE(text.find(comment), std::string::npos) << comment << "\n" << text;
}

TEST(StarterDescription, AParameterNamedNLeavesTheSizeAnotherName) {
  TempDir dir;
  const std::string source = "template <int N> __global__ void k(float* o, int n) { o[0] = N; }\n";
  const StarterTemplate written = WriteStarterTemplate(RequestFor(dir, source, "k<4>"));
  EXPECT_EQ(written.size_name, "SIZE");
  EXPECT_EQ(LoadTemplateFile(dir.File("kernels/first.toml")).args[1].value, "SIZE");
}

// A description the tool refuses is reported as its file would have been, and no file is written.
TEST(StarterDescription, OneThatDoesNotLoadIsNotWritten) {
  TempDir dir;
  const std::string source =
      "template <int BLOCK> __global__ void k(float* o) {\n#if BLOCK > 64\n  o[0] = 1;\n#endif\n}\n";
  try {
    WriteStarterTemplate(RequestFor(dir, source, "k<128>"));
    FAIL() << "written";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the description written for k<BLOCK> does not load, so none was written: " +
                           dir.File("kernels") + "/first.toml:"),
              std::string::npos)
        << message;
  }
  EXPECT_FALSE(fs::exists(dir.File("kernels")));
}

}  // namespace
}  // namespace tuner
