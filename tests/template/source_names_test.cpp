#include "template/source_names.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(SourceNames, TheDeclaredNameOfAnEntryPoint) {
  EXPECT_EQ(DeclaredName("transpose"), "transpose");
  EXPECT_EQ(DeclaredName("transpose_tile<TILE, PAD>"), "transpose_tile");
  EXPECT_EQ(DeclaredName("ns::inner::kern<4>"), "kern");
  EXPECT_EQ(DeclaredName("&ns::kern<float, 4>"), "kern");
  EXPECT_EQ(DeclaredName("static_cast<void (*)(int*)>(scale)"), "scale");
  EXPECT_EQ(DeclaredName("static_cast<void (*)(int*)>(ns::scale<2>)"), "scale");
  EXPECT_EQ(DeclaredName("(void (*)(float*, int))scale"), "scale");
  EXPECT_EQ(DeclaredName("(void (*)(float*"), "");  // unbalanced: no name, refused by the description reader
}

TEST(SourceNames, KernelNamesSkipAttributesAndComments) {
  const std::string text =
      "// __global__ void commented(int)\n"
      "extern \"C\" __global__ void __launch_bounds__(TILE * ROWS)\ntranspose(float* o) {}\n"
      "template <int T> __global__ void tiled (float* o) {}\n"
      "/* __global__ void also_commented() */ __device__ int helper(int x) { return x; }\n";
  EXPECT_EQ(KernelNamesIn(text), (std::vector<std::string>{"transpose", "tiled"}));
}

TEST(SourceNames, ANameMustOccurAsAWordOutsideComments) {
  const std::string source = "extern \"C\" __global__ void copy(float* o) {}  // not copy_all\n";
  EXPECT_EQ(MissingFromSource("copy", "/t/copy.cu", source, {}), "");
  EXPECT_EQ(MissingFromSource("cpy", "/t/copy.cu", source, {}),
            "'cpy' does not occur in copy.cu (did you mean `copy`?)");
  EXPECT_EQ(MissingFromSource("copy_all", "/t/copy.cu", source, {}),
            "'copy_all' does not occur in copy.cu; its __global__ functions: copy");
  EXPECT_EQ(MissingFromSource("cop", "/t/copy.cu", "", {}),
            "'cop' does not occur in copy.cu; it defines no __global__ function");
}

TEST(SourceNames, HeadersCount) {
  const std::vector<SourceHeader> headers = {{"k.cuh", "/t/k.cuh", "__global__ void kern(float* o) {}\n"}};
  EXPECT_EQ(MissingFromSource("kern<4>", "/t/k.cu", "#include \"k.cuh\"\n", headers), "");
  EXPECT_EQ(MissingFromSource("kernn", "/t/k.cu", "#include \"k.cuh\"\n", headers),
            "'kernn' does not occur in k.cu or the headers it includes (did you mean `kern`?)");
}

}  // namespace
}  // namespace tuner
