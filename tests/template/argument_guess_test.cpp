#include "template/argument_guess.h"

#include <gtest/gtest.h>

#include "base/errors.h"

namespace tuner {
namespace {

std::string ErrorOf(const std::string& text, const std::string& expression) {
  try {
    GuessKernel("k.cu", text, expression);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ArgumentGuess, ConstIsAnInputAssignedIsAnOutputReadIsBoth) {
  const std::string text =
      "__global__ void axpy(const float* __restrict__ x, float* y, double* out, float a, int n, long stride) {\n"
      "  int i = threadIdx.x;\n  if (i < n) { y[i] += a * x[i * stride]; out[ i ] = y[i]; }\n}\n";
  const KernelGuess guess = GuessKernel("k.cu", text, "axpy");
  ASSERT_EQ(guess.arguments.size(), 6u);
  EXPECT_EQ(guess.arguments[0].role, ArgumentRole::kInput);
  EXPECT_EQ(guess.arguments[1].role, ArgumentRole::kInOut);  // y[i] += ...
  EXPECT_EQ(guess.arguments[2].role, ArgumentRole::kOutput);
  EXPECT_EQ(guess.arguments[2].type, ScalarType::kDouble);
  EXPECT_EQ(guess.arguments[3].role, ArgumentRole::kScalar);
  EXPECT_EQ(guess.arguments[4].role, ArgumentRole::kSize);
  EXPECT_EQ(guess.arguments[5].role, ArgumentRole::kScalar);  // an integer, but not named like a count
  EXPECT_EQ(guess.arguments[5].type, ScalarType::kInt64);
  EXPECT_EQ(guess.kernel, "axpy");
  EXPECT_TRUE(guess.parameters.empty());
}

TEST(ArgumentGuess, TheTypesCudaAndCstdintSpell) {
  const std::string text =
      "__global__ void k(__half* a, const __nv_bfloat16* b, unsigned* c, const std::uint8_t* d, int64_t* e,\n"
      "                  unsigned long long f, size_t count, short g) { a[0] = 0; c[0] = 0; e[0] = 0; }\n";
  const KernelGuess guess = GuessKernel("k.cu", text, "k");
  const std::vector<ScalarType> types = {ScalarType::kHalf,   ScalarType::kBfloat16, ScalarType::kUint,
                                         ScalarType::kUint8,  ScalarType::kInt64,    ScalarType::kUint64,
                                         ScalarType::kUint64, ScalarType::kInt16};
  ASSERT_EQ(guess.arguments.size(), types.size());
  for (std::size_t i = 0; i < types.size(); ++i) EXPECT_EQ(guess.arguments[i].type, types[i]) << i;
  EXPECT_EQ(guess.arguments[6].role, ArgumentRole::kSize);
}

TEST(ArgumentGuess, IntegerTemplateArgumentsBecomeParameters) {
  const std::string text =
      "template <typename T, int BLOCK, bool CLAMP>\n"
      "__global__ void __launch_bounds__(BLOCK) scale(T* out, const T* in, int n) { out[0] = in[0]; }\n";
  const KernelGuess guess = GuessKernel("k.cu", text, "ns::scale<__half, 256, true>");
  EXPECT_EQ(guess.kernel, "ns::scale<__half, BLOCK, true>");
  ASSERT_EQ(guess.parameters.size(), 1u);
  EXPECT_EQ(guess.parameters[0].name, "BLOCK");
  EXPECT_EQ(guess.parameters[0].value, 256);
  EXPECT_EQ(guess.block_parameter, "BLOCK");
  EXPECT_EQ(guess.arguments[0].type, ScalarType::kHalf);  // T put in
  EXPECT_EQ(guess.arguments[0].written, "__half *");
}

TEST(ArgumentGuess, LaunchBoundsLimitTheBlock) {
  const KernelGuess guess = GuessKernel("k.cu", "__global__ void __launch_bounds__(64) k(float* o) { o[0] = 1; }", "k");
  EXPECT_EQ(guess.max_block_threads, 64);
  EXPECT_EQ(guess.block_parameter, "");
}

TEST(ArgumentGuess, AKernelNotThereNamesTheNearest) {
  const std::string text = "__global__ void transpose(float* o) {}\n__global__ void reduce(float* o) {}\n";
  EXPECT_EQ(ErrorOf(text, "transpos"), "k.cu: no __global__ function 'transpos' (did you mean `transpose`?)");
  EXPECT_EQ(ErrorOf(text, "gemm"), "k.cu: no __global__ function 'gemm'; its __global__ functions: transpose reduce");
  EXPECT_EQ(ErrorOf("int main() {}", "gemm"),
            "k.cu: no __global__ function 'gemm'; the file defines no __global__ function");
}

TEST(ArgumentGuess, ATypeWithoutAnElementTypeIsNamed) {
  const std::string error = ErrorOf("__global__ void k(float* o, float4* v) { o[0] = 0; }", "k");
  EXPECT_NE(error.find("kernel 'k': argument 'v' has type 'float4 *', which a description cannot pass"),
            std::string::npos)
      << error;
  EXPECT_NE(ErrorOf("__global__ void k(float** o) {}", "k").find("argument 'o' has type 'float * *'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("__global__ void k(float& o) {}", "k").find("argument 'o'"), std::string::npos);
}

TEST(ArgumentGuess, ATemplateLeftToItsDefaultsKeepsAnEmptyArgumentList) {
  const std::string text = "template <typename T = double, int B = 4> __global__ void k(T* o) { o[0] = B; }";
  const KernelGuess guess = GuessKernel("k.cu", text, "ns::k");
  EXPECT_EQ(guess.kernel, "ns::k<>");
  EXPECT_EQ(guess.arguments[0].type, ScalarType::kDouble);
  EXPECT_TRUE(guess.parameters.empty());
  EXPECT_NE(ErrorOf(text, "k<float").find("--kernel 'k<float': not a kernel name"), std::string::npos);
}

TEST(ArgumentGuess, TemplateArgumentsMustMatch) {
  const std::string text = "template <typename T, int B> __global__ void k(T* o) { o[0] = 0; }";
  EXPECT_NE(ErrorOf(text, "k").find("'k' gives 0 template argument(s); k is declared template <typename T, int B>: "
                                    "name it with its arguments"),
            std::string::npos)
      << ErrorOf(text, "k");
  EXPECT_NE(ErrorOf(text, "k<float, 1, 2>").find("gives 3 template argument(s)"), std::string::npos);
  EXPECT_NE(ErrorOf("__global__ void k(float* o) {}", "k<4>").find("declared without template parameters"),
            std::string::npos);
}

TEST(ArgumentGuess, AKernelThatWritesNoBufferIsRefused) {
  EXPECT_NE(ErrorOf("__global__ void k(const float* in, int n) {}", "k").find("has no pointer it may write"),
            std::string::npos);
}

}  // namespace
}  // namespace tuner
