#include "compile/cubin_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "db_test_util.h"
#include "shipped_templates.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::testing::TempDir;

using testing::Transpose;

const ParamValues kParams = {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}};

TEST(CubinCache, SecondCompileIsAHitWithTheSameResources) {
  TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  const CachedCompile first = cache.Compile(Transpose(), kParams, "transpose", "sm_90");
  ASSERT_TRUE(first.result.ok) << first.result.log;
  EXPECT_FALSE(first.cache_hit);
  const CachedCompile second = cache.Compile(Transpose(), kParams, "transpose", "sm_90");
  EXPECT_TRUE(second.cache_hit);
  EXPECT_EQ(second.cubin_path, first.cubin_path);
  EXPECT_EQ(second.result.info.regs_per_thread, first.result.info.regs_per_thread);
  EXPECT_EQ(second.result.lowered_name, "transpose");
  EXPECT_NE(cache.Compile(Transpose(), kParams, "transpose", "sm_80").cubin_path, first.cubin_path);
}

TEST(CubinCache, CandidatesThatDifferOnlyInHostParametersShareTheirKernel) {
  TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  TemplateSpec spec = Transpose();
  spec.params.push_back({"STREAMS", {1, 4}, {}, true});
  ParamValues one = kParams, four = kParams;
  one.emplace_back("STREAMS", 1);
  four.emplace_back("STREAMS", 4);
  const CachedCompile first = cache.Compile(spec, one, "transpose", "sm_90");
  ASSERT_TRUE(first.result.ok) << first.result.log;
  const CachedCompile second = cache.Compile(spec, four, "transpose", "sm_90");
  EXPECT_TRUE(second.cache_hit);
  EXPECT_EQ(second.cubin_path, first.cubin_path);
  spec.params.back().host = false;  // a kernel parameter is a macro: another kernel
  EXPECT_NE(cache.Compile(spec, four, "transpose", "sm_90").cubin_path, first.cubin_path);
}

TEST(CubinCache, ACorruptEntryIsRebuilt) {
  TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  const CachedCompile first = cache.Compile(Transpose(), kParams, "transpose", "sm_90");
  const std::string good = db::testing::ReadBytes(first.cubin_path);
  db::testing::WriteBytes(first.cubin_path, good.substr(0, good.size() / 2));
  const CachedCompile again = cache.Compile(Transpose(), kParams, "transpose", "sm_90");
  EXPECT_FALSE(again.cache_hit);
  EXPECT_TRUE(again.result.ok);
  EXPECT_EQ(db::testing::ReadBytes(again.cubin_path), good);
}

TEST(CubinCache, CompileErrorsAreNotCached) {
  TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  TemplateSpec broken = Transpose();
  broken.source_text += "\n#error broken\n";
  EXPECT_FALSE(cache.Compile(broken, kParams, "transpose", "sm_90").result.ok);
  EXPECT_FALSE(cache.Compile(broken, kParams, "transpose", "sm_90").cache_hit);
}

// Entries are written as WriteWholeFile writes files: the folders up to them are made again.
TEST(CubinCache, ACacheFolderRemovedWhileInUseIsMadeAgain) {
  TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  std::filesystem::remove_all(dir.File("cubins"));
  const CachedCompile first = cache.Compile(Transpose(), kParams, "transpose", "sm_90");
  ASSERT_TRUE(first.result.ok) << first.result.log;
  EXPECT_TRUE(std::filesystem::is_regular_file(first.cubin_path));
  EXPECT_TRUE(cache.Compile(Transpose(), kParams, "transpose", "sm_90").cache_hit);
}

// Writing the cache is best effort: a folder that cannot hold it fails the candidate with a reason
// and throws nothing.
TEST(CubinCache, ACacheThatCannotBeWrittenFailsTheCompileWithAReason) {
  TempDir dir;
  db::testing::WriteBytes(dir.File("not-a-folder"), "x");
  const CubinCache cache(dir.File("not-a-folder") + "/cubins");
  CachedCompile compiled;
  EXPECT_NO_THROW(compiled = cache.Compile(Transpose(), kParams, "transpose", "sm_90"));
  EXPECT_FALSE(compiled.result.ok);
  EXPECT_EQ(compiled.result.log, "cannot write the compiled kernel to " + compiled.cubin_path);
}

}  // namespace
}  // namespace tuner
