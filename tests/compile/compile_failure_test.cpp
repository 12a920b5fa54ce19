// Every kind of compile failure has a reason a user can act on, never an empty one; real NVRTC
// logs where NVRTC makes them here (no GPU needed), written ones for ptxas's and the linker's.
#include "compile/compile_failure.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compile/compiler.h"
#include "shipped_templates.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using testing::Transpose;

CompileResult Compile(const std::string& source, const std::string& entry) {
  TemplateSpec spec = Transpose();
  spec.source_text = source;
  spec.headers.clear();
  return CompileCandidate(spec, {}, entry, "sm_90");
}

std::string ReasonOf(const CompileResult& r) { return CompileFailureReason(r.log, Transpose().source_path); }

// The stored reason of a candidate that does not compile is NVRTC's first error, named by the
// source's file name (its folder left out), the line counted in the source NVRTC compiled.
TEST(CompileFailure, TheReasonOfACompileErrorIsTheFirstErrorOfTheLog) {
  TemplateSpec broken = Transpose();
  const long long line = std::count(broken.source_text.begin(), broken.source_text.end(), '\n') + 2;
  broken.source_text += "\n__device__ int broken() { return undefined_name; }\n";
  const CompileResult r =
      CompileCandidate(broken, {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}}, "transpose", "sm_90");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(CompileFailureReason(r.log, broken.source_path),
            "compile: transpose.cu(" + std::to_string(line) + "): error: identifier \"undefined_name\" is undefined")
      << r.log;
}

TEST(CompileFailure, TheReasonSkipsWarningsAndFallsBackOnTheLastLine) {
  const std::string warned =
      "/t/k.cu(3): warning #177-D: variable \"error\" was declared but never referenced\n\n"
      "/t/k.cu(9): error #20: identifier \"y\" is undefined\n  int x = y;\n          ^\n\n"
      "/t/k.cu(11): error: expected a \";\"\n\n2 errors detected in the compilation of \"/t/k.cu\".\n";
  EXPECT_EQ(CompileFailureReason(warned, "/t/k.cu"), "compile: k.cu(9): error #20: identifier \"y\" is undefined");
  EXPECT_EQ(CompileFailureReason("catastrophic error: cannot open source file \"x.h\"\n", "/t/k.cu"),
            "compile: catastrophic error: cannot open source file \"x.h\"");
  EXPECT_EQ(CompileFailureReason("ptxas info : Used 8 registers\ncannot lower the kernel name 'tile<32>'\n", "/t/k.cu"),
            "compile: no entry point: cannot lower the kernel name 'tile<32>'");
  EXPECT_EQ(CompileFailureReason("the NVRTC process failed on this candidate: the worker was killed by signal Killed",
                                 "/t/k.cu"),
            "compile: the NVRTC process failed on this candidate: the worker was killed by signal Killed");
  EXPECT_EQ(CompileFailureReason("\n \n", "/t/k.cu"), "compile: NVRTC failed without a log");
}

// NVRTC 13 fails a kernel with more than 48 KiB of __shared__ arrays with no error line at all:
// only ptxas's report says why.
TEST(CompileFailure, StaticSharedMemoryOverTheLimitIsNamedWithItsBytes) {
  const CompileResult r = Compile(
      "__global__ void big(float* o) { __shared__ float s[13000]; s[threadIdx.x] = o[0]; __syncthreads();"
      " o[threadIdx.x] = s[threadIdx.x + 1]; }\n",
      "big");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(ReasonOf(r), "compile: static shared memory over the 48 KiB limit: 52000 bytes of __shared__ arrays")
      << r.log;
  EXPECT_NE(LikelyFix(ReasonOf(r)).find("extern __shared__"), std::string::npos);
}

TEST(CompileFailure, AnEntryPointThatIsNotInTheSourceIsNamedAsSuch) {
  const CompileResult missing = Compile("__global__ void present(float* o) { o[0] = 1; }\n", "absent");
  ASSERT_FALSE(missing.ok);
  EXPECT_EQ(ReasonOf(missing), "compile: no entry point matches the kernel name: identifier \"absent\" is undefined");
  const CompileResult ambiguous =
      Compile("__global__ void k(float* o) { o[0] = 1; }\n__global__ void k(int* o) { o[0] = 1; }\n", "k");
  ASSERT_FALSE(ambiguous.ok);
  EXPECT_EQ(ReasonOf(ambiguous),
            "compile: no entry point matches the kernel name: cannot determine which instance of overloaded "
            "function \"k\" is intended");
  EXPECT_NE(LikelyFix(ReasonOf(ambiguous)).find("static_cast<void (*)(float*, int)>(kernel)"), std::string::npos);
}

TEST(CompileFailure, TheFirstNvrtcErrorWinsOverPtxasAndTheLastLine) {
  const std::string log =
      "/t/k.cu(3): warning #177-D: variable \"error\" was declared but never referenced\n\n"
      "/t/k.cu(9): error: identifier \"y\" is undefined\n\nptxas error   : Entry function 'k' uses too much "
      "shared data (0xc400 bytes, 0xc000 max)\n1 error detected\n";
  EXPECT_EQ(CompileFailureReason(log, "/t/k.cu"), "compile: k.cu(9): error: identifier \"y\" is undefined");
}

TEST(CompileFailure, PtxasAndLinkerErrorsComeNextAndLimitsAreNamed) {
  EXPECT_EQ(CompileFailureReason("ptxas info    : 0 bytes gmem\nptxas error   : Entry function '_Z1kPf' uses too "
                                 "much shared data (0xc400 bytes, 0xc000 max)\n",
                                 "/t/k.cu"),
            "compile: static shared memory over the limit: ptxas error   : Entry function '_Z1kPf' uses too much "
            "shared data (0xc400 bytes, 0xc000 max)");
  EXPECT_EQ(CompileFailureReason("ptxas fatal   : Entry function 'k' needs 300 registers, more than the 255 "
                                 "allowed\n",
                                 "/t/k.cu"),
            "compile: register limit: ptxas fatal   : Entry function 'k' needs 300 registers, more than the 255 "
            "allowed");
  EXPECT_NE(LikelyFix("compile: register limit: x").find("__launch_bounds__"), std::string::npos);
  EXPECT_EQ(CompileFailureReason("nvlink error   : Undefined reference to 'helper' in 'k.o'\nmore\n", "/t/k.cu"),
            "compile: nvlink error   : Undefined reference to 'helper' in 'k.o'");
}

TEST(CompileFailure, TheLastNonEmptyLineOtherwiseAndNeverAnEmptyReason) {
  EXPECT_EQ(CompileFailureReason("ptxas info : Used 8 registers\n  the NVRTC process was killed  \n\n", "/t/k.cu"),
            "compile: the NVRTC process was killed");
  EXPECT_EQ(CompileFailureReason("", "/t/k.cu"), "compile: NVRTC failed without a log");
  EXPECT_EQ(CompileFailureReason("\n \r\n\t\n", "/t/k.cu"), "compile: NVRTC failed without a log");
  for (const char* log : {"x", "\n", "error:", "ptxas error :", "1 bytes smem", "__nv_name_map(1): error: "})
    EXPECT_GT(CompileFailureReason(log, "/t/k.cu").size(), std::string("compile: ").size()) << log;
}

// NVRTC quotes lines of every file it reads; only the messages about the template's own
// files are kept, and the log says that the rest was left out.
TEST(CompileFailure, OnlyMessagesAboutFilesInsideTheTemplatesFolderAreKept) {
  const std::string log =
      "/home/u/.ssh/id_rsa(1): error: this declaration has no storage class or type specifier\n"
      "  -----BEGIN OPENSSH PRIVATE KEY-----\n  ^\n\n"
      "/t/poly/../secret.h(2): error: identifier \"TOKEN_abc123\" is undefined\n  TOKEN_abc123\n  ^\n\n"
      "/t/poly/k.cu(4): error: expected a \";\"\n    int x\n        ^\n\n"
      "poly.cuh(2): warning #177-D: variable \"v\" was declared but never referenced\n    int v;\n\n"
      "__nv_name_map(2): error: identifier \"k\" is undefined\n\n"
      "4 errors detected in the compilation of \"/t/poly/k.cu\".";
  const std::string kept = LogInsideFolder(log, "/t/poly");
  EXPECT_EQ(kept.find("OPENSSH"), std::string::npos) << kept;
  EXPECT_EQ(kept.find("TOKEN_abc123"), std::string::npos) << kept;
  EXPECT_EQ(kept,
            "/t/poly/k.cu(4): error: expected a \";\"\n    int x\n        ^\n\n"
            "poly.cuh(2): warning #177-D: variable \"v\" was declared but never referenced\n    int v;\n\n"
            "__nv_name_map(2): error: identifier \"k\" is undefined\n\n"
            "4 errors detected in the compilation of \"/t/poly/k.cu\".\n"
            "(2 messages about files outside the template's folder left out)");
  EXPECT_EQ(CompileFailureReason(kept, "/t/poly/k.cu"), "compile: k.cu(4): error: expected a \";\"");
  EXPECT_EQ(LogInsideFolder("/t/poly/k.cu(1): error: x\n\n", "/t/poly"), "/t/poly/k.cu(1): error: x\n\n");
}

// A source line the compiler quotes may hold a terminal's escapes: the log and the reason shown or
// stored have them escaped, as the rest of the output has, its lines and tabs kept.
TEST(CompileFailure, TheLogAndTheReasonHaveTheirControlCharactersEscaped) {
  const std::string log = "/t/k.cu(3): error: \x1b]0;pwned\x07" "bad\r\n\t\x1b[2Jint x\n\n";
  EXPECT_EQ(LogInsideFolder(log, "/t"), "/t/k.cu(3): error: \\x1b]0;pwned\\x07bad\\x0d\n\t\\x1b[2Jint x\n\n");
  const std::string reason = CompileFailureReason(log, "/t/k.cu");
  EXPECT_EQ(reason, "compile: k.cu(3): error: \\x1b]0;pwned\\x07bad");
  EXPECT_EQ(CompileFailureReason("", "/t/k.cu"), "compile: NVRTC failed without a log");
}

}  // namespace
}  // namespace tuner
