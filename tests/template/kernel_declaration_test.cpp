#include "template/kernel_declaration.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

// A file as projects publish it: headers, host code, comments and other kernels around the one wanted.
const char* const kPublished = R"(#include <cassert>
#include <cstdio>
#include <vector>
// __global__ void scale(double* commented_out)
template <typename T> __device__ T twice(T x) { return x + x; }

/* a declaration first, its definition further down */
extern "C" __global__ void scale(float*, const float*, int);

template <typename T, int BLOCK = 128>
__global__ void __launch_bounds__(BLOCK, 2) tiled(T* __restrict__ out, const T* __restrict__ in,
                                                   std::vector<int>* unused = nullptr) {
  printf("(unbalanced { in a string");
  out[threadIdx.x] = twice(in[threadIdx.x]);
}

extern "C" __global__ void scale(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];  // ) } unbalanced in a comment
}

int main() {
  std::vector<float> host(16);
  scale<<<1, 16>>>(nullptr, nullptr, 16);
  return 0;
}
)";

TEST(KernelDeclaration, TheDefinitionOfAnExternCKernelAmongHostCode) {
  const auto scale = FindKernelDeclaration(kPublished, "scale");
  ASSERT_TRUE(scale);
  EXPECT_EQ(scale->line, 17u);
  ASSERT_EQ(scale->parameters.size(), 3u);
  EXPECT_EQ(scale->parameters[0].type, "float *");
  EXPECT_EQ(scale->parameters[0].name, "out");
  EXPECT_EQ(scale->parameters[1].type, "const float *");
  EXPECT_EQ(scale->parameters[2].name, "n");
  EXPECT_NE(scale->body.find("out[i] = 2.0f * in[i]"), std::string::npos);
  EXPECT_TRUE(scale->template_parameters.empty());
  EXPECT_EQ(scale->launch_bounds, "");
}

TEST(KernelDeclaration, ATemplateWithLaunchBoundsAndRestrict) {
  const auto tiled = FindKernelDeclaration(kPublished, "tiled");
  ASSERT_TRUE(tiled);
  ASSERT_EQ(tiled->template_parameters.size(), 2u);
  EXPECT_EQ(tiled->template_parameters[0].type, "typename");
  EXPECT_EQ(tiled->template_parameters[0].name, "T");
  EXPECT_EQ(tiled->template_parameters[1].type, "int");
  EXPECT_EQ(tiled->template_parameters[1].name, "BLOCK");
  EXPECT_EQ(tiled->template_parameters[1].default_value, "128");
  EXPECT_EQ(tiled->launch_bounds, "BLOCK");
  ASSERT_EQ(tiled->parameters.size(), 3u);
  EXPECT_EQ(tiled->parameters[0].type, "T * __restrict__");
  EXPECT_EQ(tiled->parameters[1].type, "const T * __restrict__");
  EXPECT_EQ(tiled->parameters[2].type, "std::vector < int > *");  // nested angle brackets stay one parameter
  EXPECT_EQ(tiled->parameters[2].default_value, "nullptr");
}

TEST(KernelDeclaration, NoneForANameThatIsNoKernel) {
  EXPECT_FALSE(FindKernelDeclaration(kPublished, "twice"));          // a __device__ function
  EXPECT_FALSE(FindKernelDeclaration(kPublished, "commented_out"));  // in a comment only
  EXPECT_FALSE(FindKernelDeclaration(kPublished, "main"));
  EXPECT_FALSE(FindKernelDeclaration("__global__ int counter;", "counter"));
}

TEST(KernelDeclaration, ADeclarationWithoutDefinitionStillCounts) {
  const auto k = FindKernelDeclaration("__global__ void k(void);\n__global__ void other(int* x) {}", "k");
  ASSERT_TRUE(k);
  EXPECT_TRUE(k->parameters.empty());  // (void) is no parameter
  EXPECT_EQ(k->body, "");
}

TEST(KernelDeclaration, ParametersWithAndWithoutNames) {
  EXPECT_EQ(ReadParameter("unsigned int").name, "");
  EXPECT_EQ(ReadParameter("unsigned int").type, "unsigned int");
  EXPECT_EQ(ReadParameter("float* const p").type, "float * const");
  EXPECT_EQ(ReadParameter("float* const p").name, "p");
  EXPECT_EQ(ReadParameter("int n = 4").default_value, "4");
  EXPECT_EQ(ReadParameter("float x[4]").type, "float x [ 4 ]");  // no name that way: refused where it is mapped
}

TEST(KernelDeclaration, SplitsOnlyAtTopLevelCommas) {
  EXPECT_EQ(SplitTopLevel(" float , pair<int, int> x, void (*f)(int, int) "),
            (std::vector<std::string>{"float", "pair<int, int> x", "void (*f)(int, int)"}));
  EXPECT_TRUE(SplitTopLevel("  ").empty());
}

}  // namespace
}  // namespace tuner
