// nvcc has no name expressions: the kernel's lowered name is found among ptxas's entry functions.
#include "compile/lowered_name.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

const std::vector<std::string> kSoftmaxEntries = {
    "_ZN6native17softmax_referenceI6__halfEEvPT_PKS2_l",
    "_ZN6native19cunn_SoftMaxForwardI6__halffLi4ELi512EEEvPT_PKS2_l",
    "_ZN6native19cunn_SoftMaxForwardI6__halffLi4ELi256EEEvPT_PKS2_l",
};

TEST(LoweredName, PtxasEntryNamesAreTheEntryFunctionsOfTheReportInOrderOnce) {
  const std::string log =
      "ptxas info    : 181 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z2k3Pf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z2k3Pf\n"
      "ptxas info    : Compiling entry function 'plain' for 'sm_90'\n"
      "ptxas info    : Compiling entry function '_Z2k3Pf' for 'sm_90'\n";
  EXPECT_EQ(PtxasEntryNames(log), (std::vector<std::string>{"_Z2k3Pf", "plain"}));
}

TEST(LoweredName, ComparableNamesDropTheSignatureSpacesSuffixesAndCasts) {
  EXPECT_EQ(ComparableName("void ns::tile<32u, 4>(float*, int)"), "ns::tile<32,4>");
  EXPECT_EQ(ComparableName("ns::tile<32, 4>"), "ns::tile<32,4>");
  EXPECT_EQ(ComparableName("k<(char)3, 10l, 7ull>"), "k<3,10,7>");
  EXPECT_EQ(ComparableName("layernorm_forward_kernel3(float*, int)"), "layernorm_forward_kernel3");
  EXPECT_EQ(ComparableName("void k<float, (short)-2>(float*)"), "k<float,-2>");
}

TEST(LoweredName, TheTemplateConfigurationIsFoundAmongTheFilesOtherInstantiations) {
  std::string why;
  EXPECT_EQ(FindLoweredName(kSoftmaxEntries, "native::cunn_SoftMaxForward<__half, float, 4, 256>", why),
            kSoftmaxEntries[2])
      << why;
  EXPECT_EQ(FindLoweredName(kSoftmaxEntries, "native::softmax_reference<__half>", why), kSoftmaxEntries[0]) << why;
}

TEST(LoweredName, CLinkageAndPlainCppKernelsAreFoundByTheirNames) {
  std::string why;
  EXPECT_EQ(FindLoweredName({"_Z25layernorm_forward_kernel3PfS_", "transpose"}, "transpose", why), "transpose");
  EXPECT_EQ(FindLoweredName({"_Z25layernorm_forward_kernel1PfS_", "_Z25layernorm_forward_kernel3PfS_"},
                            "layernorm_forward_kernel3", why),
            "_Z25layernorm_forward_kernel3PfS_");
}

TEST(LoweredName, ANameWrittenThroughATypedefIsFoundWhenItsDeclaredNameIsUnique) {
  std::string why;
  // "half" is a typedef of __half, which the mangled name spells out.
  EXPECT_EQ(FindLoweredName({kSoftmaxEntries[0], "_Z2k3Pf"}, "native::softmax_reference<half>", why),
            kSoftmaxEntries[0]);
  EXPECT_EQ(FindLoweredName({"_Z5scalePfi", "_Z5scalePdi"}, "static_cast<void (*)(float*, int)>(scale)", why), "");
  EXPECT_NE(why.find("scale(float*, int)"), std::string::npos) << why;
  EXPECT_NE(why.find("scale(double*, int)"), std::string::npos) << why;
}

TEST(LoweredName, AnAmbiguousNameSaysWhatWasCompiled) {
  std::string why;
  EXPECT_EQ(FindLoweredName(kSoftmaxEntries, "native::cunn_SoftMaxForward<half, float, 4, 256>", why), "");
  EXPECT_NE(why.find("native::cunn_SoftMaxForward<__half, float, 4, 512>"), std::string::npos) << why;
  EXPECT_NE(why.find("write the kernel's name as one of these"), std::string::npos) << why;
  EXPECT_EQ(FindLoweredName({}, "k", why), "");
  EXPECT_NE(why.find("no kernel"), std::string::npos) << why;
}

}  // namespace
}  // namespace tuner
