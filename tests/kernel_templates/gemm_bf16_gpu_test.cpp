// The tensor-core GEMM tuned end to end on a real GPU (skipped without one): random samples of its
// candidates pass the check against the double-precision reference at a non-square size (a swap of
// M and N, or of a tile's rows and columns, would show) and at 1024^3; on an sm_90 GPU every wgmma
// candidate (sm_90a) does too, and elsewhere each is invalid for needing sm_90a. Its mutants are
// mutation_gpu_test's; its speed against cuBLAS is bench/bench_gemm_bf16.sh's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "db_test_util.h"
#include "gpu_test_support.h"
#include "mutants.h"
#include "template/template_library.h"
#include "tune_json.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::ExpectEveryCandidateOk;
using testing::TuneJson;

// Random samples of the space (the strategy's fixed seed): 24 candidates at 512x1024x768, 8 at
// 1024^3, and 8 of the same kernel for half inputs (gemm_fp16).
TEST(GemmBf16Gpu, RandomSamplesOfCandidatesPassTheirCheck) {
  TUNER_GPU_TEST(1);
  const std::vector<std::tuple<std::string, std::string, std::size_t>> runs = {
      {"gemm_bf16", "512x1024x768", 24}, {"gemm_bf16", "1024x1024x1024", 8}, {"gemm_fp16", "1024x1024x1024", 8}};
  for (const auto& [name, size, budget] : runs) {
    TempDir dir;
    const nlohmann::json doc =
        TuneJson(dir, name + " --size " + size + " --strategy random --budget " + std::to_string(budget));
    ExpectEveryCandidateOk(doc);
    EXPECT_EQ(doc.at("candidates").size(), budget) << name << " at " << size;
    ASSERT_TRUE(doc.contains("best")) << name << " at " << size;
    EXPECT_EQ(doc.at("best").at("perf_unit"), "GFLOP/s");
  }
}

// The wgmma candidates alone (the shipped template with one added constraint, as the mutation test
// samples it) at 1024^3 and 512x1024x768, each run on a fresh database.
TEST(GemmBf16Gpu, EveryWgmmaCandidatePassesItsCheckOnSm90) {
  TUNER_GPU_TEST(1);
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));  // outlives the spec it holds
  const TemplateSpec& spec = library.Find("gemm_bf16");
  for (const std::string size : {"1024x1024x1024", "512x1024x768"}) {
    TempDir dir;
    testing::WriteMutant(spec, testing::Mutant{"none", {}, size, "0"}, "gemm_wgmma", dir.File("t"), "INSTR >= 1");
    const nlohmann::json doc = TuneJson(dir, "gemm_wgmma --templates " + dir.File("t") + " --size " + size);
    ASSERT_EQ(doc.at("candidates").size(), 20u) << size;
    if (doc.at("gpu").at("arch") != "sm_90") {
      for (const nlohmann::json& c : doc.at("candidates"))
        EXPECT_NE(c.dump().find("needs sm_90a (wgmma)"), std::string::npos) << c.dump();
      continue;
    }
    ExpectEveryCandidateOk(doc);
    ASSERT_TRUE(doc.contains("best")) << size;
  }
}

}  // namespace
}  // namespace tuner
