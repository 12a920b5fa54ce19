#include "template/source_headers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compile/compiler.h"
#include "compile/cubin_cache.h"
#include "db_test_util.h"
#include "template/template_library.h"
#include "template/template_spec.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;

TEST(SourceHeaders, FollowsQuotedIncludesBesideTheirIncluder) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("lib"));
  std::ofstream(dir.File("lib/a.cuh")) << "#pragma once\r\n  #  include \"b.cuh\"  // nested, beside a.cuh\r\n";
  std::ofstream(dir.File("lib/b.cuh")) << "#define B 1\n";
  const std::string source = "#include <cuda_fp16.h>\n#include \"lib/a.cuh\"\n#include \"not_here.cuh\"\n";
  const auto headers = FindSourceHeaders(dir.File("k.cu"), source);
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].include_name, "lib/a.cuh");
  EXPECT_EQ(headers[1].include_name, "b.cuh");
  EXPECT_EQ(headers[1].text, "#define B 1\n");
}

TEST(SourceHeaders, AlsoFollowsTheProjectsIncludeFoldersAfterTheIncluders) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("project/include"));
  std::filesystem::create_directories(dir.File("other"));
  std::ofstream(dir.File("project/include/gemm.cuh")) << "#include \"parts.cuh\"\n__global__ void gemm(float*) {}\n";
  std::ofstream(dir.File("project/include/parts.cuh")) << "#define PART 1\n";
  std::ofstream(dir.File("other/parts.cuh")) << "#define PART 2\n";  // a later folder: not the one taken
  const auto headers = FindSourceHeaders(dir.File("k.cu"), "#include \"gemm.cuh\"\n",
                                         {dir.File("project/include"), dir.File("other")});
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[1].include_name, "parts.cuh");
  EXPECT_EQ(headers[1].text, "#define PART 1\n");
}

TEST(SourceHeaders, IncludeFoldersAreReadFromTheOptionsInEveryForm) {
  EXPECT_EQ(IncludeDirs({"-Iinc", "-I", "/abs", "--include-path=a/b", "--include-path", "c", "-DX=1", "-std=c++17"},
                        "/desc"),
            (std::vector<std::string>{"/desc/inc", "/abs", "/desc/a/b", "/desc/c"}));
}

TEST(SourceHeaders, AKernelDefinedInAHeaderOfAnIncludeFolderIsFound) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("inc"));
  std::ofstream(dir.File("inc/kernels.cuh")) << testing::kSmallSource;
  const std::string description = testing::WriteTemplateFiles(
      dir.File(""), "small", std::string("options = [\"-I") + dir.File("inc") + "\"]\n" + testing::kSmallDescription,
      "#include \"kernels.cuh\"\n");
  const TemplateSpec spec = LoadTemplateFile(description);
  ASSERT_EQ(spec.headers.size(), 1u);
  EXPECT_EQ(spec.headers[0].include_name, "kernels.cuh");
}

TEST(SourceHeaders, OneNameForTwoFilesIsAnError) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("x"));
  std::ofstream(dir.File("common.cuh")) << "#include \"x/inner.cuh\"\n";
  std::ofstream(dir.File("x/inner.cuh")) << "#include \"common.cuh\"\n";  // x/common.cuh, not ./common.cuh
  std::ofstream(dir.File("x/common.cuh")) << "\n";
  try {
    FindSourceHeaders(dir.File("k.cu"), "#include \"common.cuh\"\n");
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_NE(std::string(e.what()).find("\"common.cuh\" means both"), std::string::npos) << e.what();
  }
}

TEST(SourceHeaders, AnEditedHeaderIsANewTemplateVersion) {
  TempDir dir;
  const std::string source = std::string("#include \"value.cuh\"\n") + testing::kSmallSource;
  const std::string description =
      testing::WriteTemplateFiles(dir.File(""), "small", testing::kSmallDescription, source);
  std::ofstream(dir.File("value.cuh")) << "#define VALUE 1.0f\n";
  const TemplateSpec before = LoadTemplateFile(description);
  ASSERT_EQ(before.headers.size(), 1u);
  std::ofstream(dir.File("value.cuh")) << "#define VALUE 2.0f\n";
  EXPECT_NE(LoadTemplateFile(description).hash, before.hash);
}

// NVRTC gets the headers by name: the compile needs no file system, and the cache key changes with them.
TEST(SourceHeaders, NvrtcCompilesWithThemAndTheCacheKeysOnThem) {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  TemplateSpec spec = library.Find("transpose");
  spec.source_text = "#include \"tile_scale.cuh\"\nstatic_assert(TILE_SCALE == 1, \"\");\n" + spec.source_text;
  const ParamValues params = {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}};
  EXPECT_FALSE(CompileCandidate(spec, params, "transpose", "sm_90").ok);  // the header is nowhere on disk
  spec.headers = {{"tile_scale.cuh", "", "#define TILE_SCALE 1\n"}};
  const CompileResult compiled = CompileCandidate(spec, params, "transpose", "sm_90");
  ASSERT_TRUE(compiled.ok) << compiled.log;

  TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  const std::string first = cache.Compile(spec, params, "transpose", "sm_90").cubin_path;
  spec.headers[0].text = "#define TILE_SCALE 1 // edited\n";
  const CachedCompile edited = cache.Compile(spec, params, "transpose", "sm_90");
  EXPECT_FALSE(edited.cache_hit);
  EXPECT_NE(edited.cubin_path, first);
}

}  // namespace
}  // namespace tuner
