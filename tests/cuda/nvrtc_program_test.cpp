// Every NVRTC call of a program is checked: a failure names the call and NVRTC's error. NVRTC runs
// without a GPU: these always run.
#include "cuda/nvrtc_program.h"

#include <gtest/gtest.h>

#include <string>

namespace tuner {
namespace {

const char* kKernel = "extern \"C\" __global__ void k(float* out) { out[0] = 1.0f; }\n";

TEST(NvrtcProgram, CheckNamesTheCallAndNvrtcsError) {
  try {
    CheckNvrtc(NVRTC_ERROR_OUT_OF_MEMORY, "nvrtcSomething");
    FAIL() << "expected an NvrtcError";
  } catch (const NvrtcError& e) {
    EXPECT_EQ(e.code, NVRTC_ERROR_OUT_OF_MEMORY);
    EXPECT_STREQ(e.what(), "nvrtcSomething failed: NVRTC_ERROR_OUT_OF_MEMORY");
  }
  EXPECT_NO_THROW(CheckNvrtc(NVRTC_SUCCESS, "nvrtcSomething"));
}

TEST(NvrtcProgram, CompilesToACubinWithItsHeaders) {
  NvrtcProgram program("#include \"value.h\"\nextern \"C\" __global__ void k(float* out) { out[0] = VALUE; }\n", "k.cu",
                       {{"value.h", "#define VALUE 2.0f\n"}});
  ASSERT_EQ(program.Compile({"-arch=sm_90"}), NVRTC_SUCCESS) << program.Log();
  EXPECT_EQ(program.Cubin().substr(0, 4),
            "\x7f"
            "ELF");
}

TEST(NvrtcProgram, ASourceThatDoesNotCompileIsAResultWithTheLog) {
  NvrtcProgram program("__global__ void k() { undefined_name = 1; }\n", "broken.cu");
  EXPECT_EQ(program.Compile({"-arch=sm_90"}), NVRTC_ERROR_COMPILATION);
  EXPECT_NE(program.Log().find("broken.cu(1): error: identifier \"undefined_name\" is undefined"), std::string::npos)
      << program.Log();
}

// NVRTC puts a NUL between its own messages and ptxas's; the log is text (a compile error is
// stored with it, and a store's rows must be plain text to be merged or exported).
TEST(NvrtcProgram, ALogWithPtxasErrorsIsPlainText) {
  NvrtcProgram program(
      "extern \"C\" __global__ void k(float* out) {\n"
      "  __shared__ float big[12400];  // 49,600 bytes: over the 48 KiB of static shared memory\n"
      "  big[threadIdx.x] = out[threadIdx.x];\n  __syncthreads();\n  out[threadIdx.x] = big[threadIdx.x + 1];\n}\n",
      "big.cu");
  EXPECT_NE(program.Compile({"-arch=sm_90", "-Xptxas=-v"}), NVRTC_SUCCESS);
  const std::string log = program.Log();
  EXPECT_NE(log.find("too much shared data"), std::string::npos) << log;
  EXPECT_EQ(log.find('\0'), std::string::npos) << log;
}

TEST(NvrtcProgram, AFailedCallThrowsNamingIt) {
  NvrtcProgram program(kKernel, "k.cu");
  ASSERT_EQ(program.Compile({"-arch=sm_90"}), NVRTC_SUCCESS) << program.Log();
  try {
    program.AddNameExpression("k");  // NVRTC takes name expressions only before the compile
    FAIL() << "expected an NvrtcError";
  } catch (const NvrtcError& e) {
    EXPECT_EQ(e.code, NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
    EXPECT_STREQ(e.what(), "nvrtcAddNameExpression failed: NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION");
  }
}

}  // namespace
}  // namespace tuner
