// The time of one TunedConfigs::Lookup once the database is open: the figure for
// reports/benchmarks.md (requirement: well under 100 us). Not a unit test: run it by hand.
//   lookup_benchmark [--db PATH] [--iterations N]
// Without --db it builds a synthetic database (4 GPUs of 3 models, 4 kernels, 64 sizes each,
// 30 candidates per size: 30720 measurements) in a temporary folder.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "db/store.h"
#include "db/tuned_config.h"

namespace {

using Clock = std::chrono::steady_clock;

tuner::db::GpuRecord Gpu(const std::string& uuid, const std::string& name, int cc_major, std::int64_t memory) {
  return {uuid, name, cc_major, 0, 132, memory, "13.0", "13.0"};
}

std::string MakeSyntheticDatabase(const std::string& path) {
  const std::vector<tuner::db::GpuRecord> gpus = {Gpu("GPU-h100-a", "NVIDIA H100 80GB HBM3", 9, 85'000'000'000),
                                                  Gpu("GPU-h100-b", "NVIDIA H100 80GB HBM3", 9, 85'000'000'000),
                                                  Gpu("GPU-h200-a", "NVIDIA H200", 9, 150'000'000'000),
                                                  Gpu("GPU-a100-a", "NVIDIA A100-SXM4-80GB", 8, 85'000'000'000)};
  std::vector<tuner::db::MeasurementRow> rows;
  for (const char* kernel : {"transpose", "matmul", "reduction", "conv1d"})
    for (const auto& gpu : gpus)
      for (int wi = 0; wi < 8; ++wi)
        for (int hi = 0; hi < 8; ++hi)
          for (int c = 0; c < 30; ++c) {
            tuner::db::MeasurementRow row;
            row.gpu = gpu;
            row.templ = {kernel, std::string("hash-") + kernel, "2026-11-22T00:00:00Z"};
            row.size_key = std::to_string(256 << wi) + "x" + std::to_string(256 << hi);
            row.sweep.uid = gpu.uuid + kernel + row.size_key;
            row.sweep.size_key = row.size_key;
            row.measurement.params_json = "{\"VARIANT\":1,\"TILE\":" + std::to_string(16 << (c % 3)) +
                                          ",\"ROWS\":" + std::to_string(4 << (c / 3 % 4)) + ",\"PAD\":" + std::to_string(c / 12) + "}";
            row.measurement.launch_json = "{\"grid\":[128,128,1],\"block\":[32,8,1],\"shared_bytes\":0}";
            row.measurement.status = c % 7 == 3 ? "invalid" : "ok";
            row.measurement.time_ms_median = 1.0 + ((c * 37 + wi * 11 + hi) % 97) / 10.0;
            row.measurement.measured_at = "2026-11-22T01:00:00Z";
            rows.push_back(row);
          }
  tuner::db::Store::Open(path, tuner::db::OpenMode::kReadWrite).Import(rows);
  return std::to_string(rows.size()) + " measurements";
}

// Times `lookup` one call at a time and prints the median, 99th percentile and mean in microseconds.
void Measure(const char* what, int iterations, const std::function<bool()>& lookup) {
  std::vector<double> us(static_cast<std::size_t>(iterations));
  int found = 0;
  for (double& t : us) {
    const auto start = Clock::now();
    found += lookup();
    t = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  }
  double mean = 0;
  for (double t : us) mean += t / iterations;
  std::sort(us.begin(), us.end());
  std::printf("%-34s median %7.2f us   p99 %7.2f us   mean %7.2f us   (%d/%d found)\n", what, us[us.size() / 2],
              us[us.size() * 99 / 100], mean, found, iterations);
}

}  // namespace

int main(int argc, char** argv) {
  std::string db;
  int iterations = 20000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--db") db = argv[i + 1];
    if (std::string(argv[i]) == "--iterations") iterations = std::max(1, std::atoi(argv[i + 1]));
  }
  const std::string folder = std::filesystem::temp_directory_path() / ("tuner-bench-" + std::to_string(getpid()));
  if (db.empty()) {
    db = folder + "/bench.db";
    std::printf("synthetic database %s: %s\n", db.c_str(), MakeSyntheticDatabase(db).c_str());
  }
  auto start = Clock::now();
  const tuner::TunedConfigs configs = tuner::TunedConfigs::Open(db);
  std::printf("%-34s %7.0f us\n", "open (header, quick_check)", std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  const tuner::GpuIdentity h100{"NVIDIA H100 80GB HBM3", 9, 0, 132, 85'000'000'000, "GPU-h100-a"};
  tuner::GpuIdentity l40 = {"NVIDIA L40S", 8, 9, 142, 48'000'000'000, "GPU-x"};
  start = Clock::now();
  configs.Lookup("transpose", h100, {8192, 8192});
  std::printf("%-34s %7.0f us\n", "first lookup of a kernel (SQL)", std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  Measure("exact size, this card", iterations, [&] { return bool(configs.Lookup("transpose", h100, {8192, 8192})); });
  Measure("nearest size, this card", iterations, [&] { return bool(configs.Lookup("transpose", h100, {5000, 3000})); });
  tuner::GpuIdentity other_card = h100;
  other_card.uuid = "GPU-never-tuned";
  Measure("same model, another card", iterations, [&] { return bool(configs.Lookup("transpose", other_card, {8192, 8192})); });
  Measure("by name \"H200\"", iterations, [&] { return bool(configs.Lookup("transpose", std::string("H200"), {8192, 8192})); });
  Measure("not found (other architecture)", iterations, [&] { return bool(configs.Lookup("transpose", l40, {8192, 8192})); });
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  return 0;
}
