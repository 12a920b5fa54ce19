#include "sweep/multi_gpu_sweep.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "base/errors.h"
#include "db/query/gpu_model.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

GpuInfo Gpu(int index, const std::string& name) {
  GpuInfo gpu;
  gpu.index = index;
  gpu.name = name;
  gpu.cc_major = 9;
  gpu.sm_count = 132;
  gpu.memory_bytes = 80LL << 30;
  return gpu;
}

TEST(MultiGpuSweep, GpusOfOneModelShareTheCandidatesOthersTuneFully) {
  SweepOptions base;
  const auto sweeps = ShareByModel(base, {Gpu(0, "NVIDIA H100"), Gpu(1, "NVIDIA H200"), Gpu(2, "NVIDIA H100")});
  ASSERT_EQ(sweeps.size(), 3u);
  EXPECT_EQ(sweeps[0].gpu.index, 0);
  EXPECT_EQ(sweeps[0].options.shard, 0u);
  EXPECT_EQ(sweeps[0].options.shards, 2u);
  EXPECT_EQ(sweeps[1].gpu.index, 1);
  EXPECT_EQ(sweeps[1].gpu.name, "NVIDIA H200");
  EXPECT_EQ(sweeps[1].options.shard, 0u);
  EXPECT_EQ(sweeps[1].options.shards, 1u);
  EXPECT_EQ(sweeps[2].gpu.index, 2);
  EXPECT_EQ(sweeps[2].options.shard, 1u);
  EXPECT_EQ(sweeps[2].options.shards, 2u);
}

// The cards of one model hand in their leaders and each gets all of them, fastest first.
TEST(MultiGpuSweep, CardsOfOneModelExchangeTheirLeaders) {
  const auto sweeps =
      ShareByModel(SweepOptions(), {Gpu(0, "NVIDIA H100"), Gpu(1, "NVIDIA H200"), Gpu(2, "NVIDIA H100")});
  ASSERT_TRUE(sweeps[0].options.leader_exchange && sweeps[2].options.leader_exchange);
  EXPECT_FALSE(sweeps[1].options.leader_exchange);  // alone of its model: its own leaders decide
  std::vector<Leader> seen_by_0, seen_by_2;
  std::thread card0([&] { seen_by_0 = sweeps[0].options.leader_exchange({{"a", 2.0}, {"b", 3.0}}); });
  std::thread card2([&] { seen_by_2 = sweeps[2].options.leader_exchange({{"c", 1.0}, {"a", 1.5}}); });  // "a" twice
  card0.join();
  card2.join();
  ASSERT_EQ(seen_by_0.size(), 3u);  // one entry per candidate, at its fastest
  EXPECT_EQ(seen_by_0[0].params_json, "c");
  EXPECT_EQ(seen_by_0[1].params_json, "a");
  EXPECT_DOUBLE_EQ(seen_by_0[1].time_ms, 1.5);
  EXPECT_EQ(seen_by_0[2].params_json, "b");
  ASSERT_EQ(seen_by_2.size(), 3u);
  EXPECT_EQ(seen_by_2[0].params_json, "c");
}

// A card whose sweep failed never hands in its leaders; the interrupt flag releases the others.
TEST(MultiGpuSweep, AnInterruptReleasesCardsWaitingForTheOthers) {
  const auto sweeps = ShareByModel(SweepOptions(), {Gpu(0, "NVIDIA H100"), Gpu(1, "NVIDIA H100")});
  std::vector<Leader> seen;
  std::thread card0([&] { seen = sweeps[0].options.leader_exchange({{"a", 2.0}}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  g_sweep_interrupted = true;
  card0.join();
  g_sweep_interrupted = false;
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].params_json, "a");
}

// A card that failed never hands in its leaders; the command's stop releases the others.
TEST(MultiGpuSweep, AFailedCardReleasesTheCardsWaitingForTheOthers) {
  const auto sweeps = ShareByModel(SweepOptions(), {Gpu(0, "NVIDIA H100"), Gpu(1, "NVIDIA H100")});
  std::vector<Leader> seen;
  std::thread card0([&] { seen = sweeps[0].options.leader_exchange({{"a", 2.0}}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  sweeps[1].options.stop->GpuFailed();
  card0.join();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(g_sweep_interrupted);
}

// A sweep that fails stops the others through the command's stop, not Ctrl-C's flag, which would
// leave every later sweep of the process (the next size, the next test) interrupted at once.
TEST(MultiGpuSweep, AFailedSweepStopsTheOthersWithoutPressingCtrlC) {
  db::testing::TempDir dir;
  const TemplateSpec spec =
      LoadTemplateFile(testing::WriteTemplateFiles(dir.File("t"), "small", testing::kSmallDescription));
  db::Store store = db::Store::Open(dir.File("t.db"), db::OpenMode::kReadWrite);
  SweepOptions base;
  base.worker_executable = dir.File("no-such-tuner");  // neither NVRTC processes nor workers start
  const std::vector<GpuSweep> sweeps = ShareByModel(base, {Gpu(0, "NVIDIA H100"), Gpu(1, "NVIDIA H100")});
  const SweepTarget target = TargetAtSize(spec, ParseProblemSize(spec, ""));
  EXPECT_THROW(RunSweeps(target, sweeps, store), std::exception);
  EXPECT_FALSE(g_sweep_interrupted);
  EXPECT_EQ(sweeps[0].options.stop->Reason(), StopReason::kGpuFailed);
}

TEST(MultiGpuSweep, ModelOfSeparatesModels) {
  EXPECT_EQ(db::ModelOf(Gpu(0, "NVIDIA H100")), db::ModelOf(Gpu(3, "NVIDIA H100")));
  EXPECT_NE(db::ModelOf(Gpu(0, "NVIDIA H100")), db::ModelOf(Gpu(0, "NVIDIA H200")));
}

// Cards share candidates only when they would resume from each other's records: the memory in bytes,
// not rounded to GiB, as the store compares it.
TEST(MultiGpuSweep, CardsWhoseMemoryDiffersShareNothing) {
  GpuInfo other = Gpu(1, "NVIDIA H100");
  other.memory_bytes += 1 << 20;
  const SweepOptions base;
  const auto sweeps = ShareByModel(base, {Gpu(0, "NVIDIA H100"), other});
  ASSERT_EQ(sweeps.size(), 2u);
  for (const GpuSweep& s : sweeps) EXPECT_EQ(s.options.shards, 1u);
  db::GpuRecord a, b;
  a.memory_bytes = Gpu(0, "").memory_bytes;
  b.memory_bytes = other.memory_bytes;
  EXPECT_FALSE(db::SameModel(a, b));
}

}  // namespace
}  // namespace tuner
