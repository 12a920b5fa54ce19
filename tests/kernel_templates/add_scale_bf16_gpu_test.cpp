// The bfloat16 add-and-scale template tuned end to end on a real GPU (skipped without one): every
// candidate passes its check at a size with a tail, and at the default size the best reaches 90% of
// the device-to-device copy bandwidth its own sweep measures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "db_test_util.h"
#include "gpu_test_support.h"
#include "tune_json.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::ExpectEveryCandidateOk;
using testing::TuneJson;

TEST(AddScaleBf16Gpu, EveryCandidatePassesAtASizeWithATail) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const nlohmann::json doc = TuneJson(dir, "add_scale_bf16 --size 1000003");
  ExpectEveryCandidateOk(doc);
  EXPECT_EQ(doc.at("candidates").size(), 36u);
}

TEST(AddScaleBf16Gpu, TheBestReachesNinetyPercentOfCopyBandwidth) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const nlohmann::json doc = TuneJson(dir, "add_scale_bf16");
  ASSERT_TRUE(doc.contains("best")) << doc.dump();
  const double copy_gbps = doc.at("copy_gbps"), best_gbps = doc.at("best").at("perf");
  EXPECT_EQ(doc.at("best").at("perf_unit"), "GB/s");
  ASSERT_GT(copy_gbps, 0);
  EXPECT_GE(best_gbps, 0.9 * copy_gbps) << "best " << best_gbps << " GB/s (" << doc.at("best").at("params").dump()
                                        << "), copy " << copy_gbps << " GB/s";
}

}  // namespace
}  // namespace tuner
