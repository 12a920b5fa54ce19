// Parameters that are also names of the source: template arguments through the kernel's name, or
// one refusal before any compile naming the parameter, the line and the fix.
#include "template/macro_collisions.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compile/compiler.h"
#include "db_test_util.h"

namespace tuner {
namespace {

TemplateSpec Spec(const std::string& kernel, const std::string& source, std::vector<std::string> params) {
  TemplateSpec spec;
  spec.name = "poly";
  spec.description_path = "/t/poly.toml";
  spec.source_path = "/t/poly.cu";
  spec.kernel = kernel;
  spec.source_text = source;
  for (const std::string& name : params) spec.params.push_back({name, {1, 2}, {}, false});
  return spec;
}

std::string Refusal(const TemplateSpec& spec) {
  try {
    TemplateArgumentParams(spec);
  } catch (const TemplateError& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kPnpoly =
    "template <int BLOCK, int TILE>\n"
    "__global__ void pnpoly(int* bitmap, const float2* points, int n) {\n"
    "  const int i = blockIdx.x * BLOCK + threadIdx.x;  // int TILE in a comment is no declaration\n"
    "  if (i < n) bitmap[i] = TILE;\n"
    "}\n";

TEST(MacroCollisions, TemplateParametersNamedInTheKernelAreTemplateArguments) {
  EXPECT_EQ(TemplateArgumentParams(Spec("pnpoly<BLOCK, TILE>", kPnpoly, {"BLOCK", "TILE"})),
            (std::vector<std::string>{"BLOCK", "TILE"}));
}

TEST(MacroCollisions, ATemplateParameterTheKernelNameDoesNotPassIsRefusedWithTheFix) {
  EXPECT_EQ(Refusal(Spec("pnpoly<BLOCK, 4>", kPnpoly, {"BLOCK", "TILE"})),
            "/t/poly.toml: parameter TILE: is also a template parameter at poly.cu:1 ('template <int BLOCK, int "
            "TILE>'), which its -DTILE macro would rewrite into a syntax error; pass TILE among the template "
            "arguments of the kernel name (now \"pnpoly<BLOCK, 4>\") if that template is the kernel, or rename one "
            "of the two");
}

TEST(MacroCollisions, ADeclarationTheMacroWouldRewriteIsRefusedNamingItsLine) {
  const std::string source =
      "extern \"C\" __global__ void k(float* o) {\n"
      "  // TILE is the tile\n"
      "  const int TILE = 4;\n"
      "  o[0] = TILE;\n"
      "}\n";
  EXPECT_EQ(Refusal(Spec("k", source, {"TILE"})),
            "/t/poly.toml: parameter TILE: is also declared at poly.cu:3 ('const int TILE = 4;'), which its -DTILE "
            "macro would rewrite into a syntax error; rename the declaration or the parameter");
  EXPECT_NE(Refusal(Spec("k", "struct S { int TILE; };\n__global__ void k(S s, float* o) { o[0] = s.TILE; }\n",
                         {"TILE"})),
            "");
}

// The usual ways of using a macro: in expressions, array bounds, defaults under #ifndef, #if.
TEST(MacroCollisions, UsesOfAMacroAreNoCollision) {
  const std::string source =
      "#ifndef TILE\n#define TILE 16\n#endif\n"
      "#if TILE > 8\n#define BIG 1\n#endif\n"
      "template <int N = TILE> __device__ int twice() { return 2 * N; }\n"
      "__global__ void __launch_bounds__(TILE) k(float* o) {\n"
      "  __shared__ float s[TILE * TILE];\n"
      "  switch (threadIdx.x) { case TILE: break; }\n"
      "  o[0] = s[0] + twice<TILE>() + sizeof(float[TILE]);\n"
      "  if (o[1] > 0) return; else o[2] = (float)TILE;\n"
      "}\n";
  EXPECT_EQ(Refusal(Spec("k", source, {"TILE"})), "");
  EXPECT_TRUE(TemplateArgumentParams(Spec("k", source, {"TILE"})).empty());
}

TEST(MacroCollisions, ATemplateArgumentThatAnIfAlsoReadsIsRefused) {
  const std::string source = std::string(kPnpoly) + "#if TILE > 8\n#endif\n";
  const std::string refusal = Refusal(Spec("pnpoly<BLOCK, TILE>", source, {"BLOCK", "TILE"}));
  EXPECT_NE(refusal.find("parameter TILE: is a template parameter at poly.cu:1"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("poly.cu:6 ('#if TILE > 8') reads it as one (it would read 0)"), std::string::npos)
      << refusal;
}

TEST(MacroCollisions, HeadersAreSearchedTooAndNamedByTheirInclude) {
  TemplateSpec spec = Spec("pnpoly<BLOCK>", "#include \"poly.cuh\"\n", {"BLOCK", "TILE"});
  spec.headers.push_back({"poly.cuh", "/t/poly.cuh", kPnpoly});
  const std::string refusal = Refusal(spec);
  EXPECT_NE(refusal.find("parameter TILE: is also a template parameter at poly.cuh:1"), std::string::npos) << refusal;
  spec.kernel = "pnpoly<BLOCK, TILE>";
  EXPECT_EQ(TemplateArgumentParams(spec), (std::vector<std::string>{"BLOCK", "TILE"}));
}

TEST(MacroCollisions, AHostParameterIsNoMacroAndNeverCollides) {
  TemplateSpec spec = Spec("pnpoly<BLOCK, 4>", kPnpoly, {"BLOCK", "TILE"});
  spec.params[1].host = true;
  EXPECT_EQ(TemplateArgumentParams(spec), (std::vector<std::string>{"BLOCK"}));
}

void WriteDescription(const std::string& path, const std::string& kernel) {
  std::ofstream(path) << "name = \"poly\"\nkernel = \"" << kernel << "\"\n[[size]]\nname = \"N\"\ndefault = 1024\n"
                         "[[param]]\nname = \"BLOCK\"\nvalues = [128, 256]\n[[param]]\nname = \"TILE\"\nvalues = [1, 2]\n"
                         "[launch]\ngrid = [\"cdiv(N, BLOCK)\"]\nblock = [\"BLOCK\"]\n"
                         "[[arg]]\nname = \"bitmap\"\ntype = \"int\"\nlength = \"N\"\noutput = true\n"
                         "[[arg]]\nname = \"points\"\ntype = \"float\"\nlength = \"2 * N\"\n"
                         "[[arg]]\nname = \"n\"\ntype = \"int\"\nvalue = \"N\"\n"
                         "[check]\nkernel = \"reference\"\n[work]\nbytes = \"12 * N\"\n";
}

// Through the description reader and NVRTC: the template tunes as it is written.
TEST(MacroCollisions, ATemplatedKernelLoadsAndCompilesWithTheCandidatesValues) {
  db::testing::TempDir dir;
  std::ofstream(dir.File("poly.cuh")) << kPnpoly;
  std::ofstream(dir.File("poly.cu")) << "#include \"poly.cuh\"\n"
                                        "__global__ void reference(int* bitmap, const float2* points, int n) {}\n";
  WriteDescription(dir.File("poly.toml"), "pnpoly<BLOCK, TILE>");
  const TemplateSpec spec = LoadTemplateFile(dir.File("poly.toml"));
  EXPECT_EQ(spec.template_arguments, (std::vector<std::string>{"BLOCK", "TILE"}));
  const CompileResult r = CompileCandidate(spec, {{"BLOCK", 256}, {"TILE", 2}}, spec.kernel, "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_Z6pnpolyILi256ELi2EEvPiPK6float2i");
  const CompileResult reference = CompileCandidate(spec, {{"BLOCK", 256}, {"TILE", 2}}, "reference", "sm_90");
  ASSERT_TRUE(reference.ok) << reference.log;
  EXPECT_EQ(reference.lowered_name, "_Z9referencePiPK6float2i");

  WriteDescription(dir.File("poly.toml"), "pnpoly<BLOCK, 2>");  // TILE would be a macro in its template
  try {
    LoadTemplateFile(dir.File("poly.toml"));
    FAIL() << "loaded";
  } catch (const TemplateError& e) {
    EXPECT_NE(std::string(e.what()).find("poly.toml: parameter TILE: is also a template parameter at poly.cuh:1"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tuner
