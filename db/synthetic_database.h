// A synthetic results database of 30,720 measurements, for the lookup benchmark and the test that
// keeps the first lookup fast: 4 GPUs of 3 models, 4 kernels, 64 sizes each, 30 candidates per
// size, one in seven of them invalid. Not installed.
#pragma once

#include <string>
#include <vector>

#include "db/query/store.h"

namespace tuner::db {

inline GpuRecord SyntheticGpu(const std::string& uuid, const std::string& name, int cc_major, std::int64_t memory) {
  return {{name, cc_major, 0, 132, memory, uuid}, "13.0", "13.0", 0};
}

// Creates the database at `path`; returns the number of measurements.
inline std::size_t MakeSyntheticDatabase(const std::string& path) {
  const std::vector<GpuRecord> gpus = {SyntheticGpu("GPU-h100-a", "NVIDIA H100 80GB HBM3", 9, 85'000'000'000),
                                       SyntheticGpu("GPU-h100-b", "NVIDIA H100 80GB HBM3", 9, 85'000'000'000),
                                       SyntheticGpu("GPU-h200-a", "NVIDIA H200", 9, 150'000'000'000),
                                       SyntheticGpu("GPU-a100-a", "NVIDIA A100-SXM4-80GB", 8, 85'000'000'000)};
  std::vector<MeasurementRow> rows;
  for (const char* kernel : {"transpose", "matmul", "reduction", "conv1d"})
    for (const auto& gpu : gpus)
      for (int wi = 0; wi < 8; ++wi)
        for (int hi = 0; hi < 8; ++hi)
          for (int c = 0; c < 30; ++c) {
            MeasurementRow row;
            row.gpu = gpu;
            row.templ = {kernel, std::string("hash-") + kernel, "2026-11-22T00:00:00Z"};
            row.size_key = std::to_string(256 << wi) + "x" + std::to_string(256 << hi);
            row.sweep.uid = gpu.uuid + kernel + row.size_key;
            row.sweep.size_key = row.size_key;
            row.measurement.params_json = "{\"VARIANT\":1,\"TILE\":" + std::to_string(16 << (c % 3)) +
                                          ",\"ROWS\":" + std::to_string(4 << (c / 3 % 4)) +
                                          ",\"PAD\":" + std::to_string(c / 12) + "}";
            row.measurement.launch_json = "{\"grid\":[128,128,1],\"block\":[32,8,1],\"shared_bytes\":0}";
            row.measurement.status = c % 7 == 3 ? CandidateStatus::kInvalid : CandidateStatus::kOk;
            row.measurement.time_ms_median = 1.0 + ((c * 37 + wi * 11 + hi) % 97) / 10.0;
            row.measurement.measured_at = "2026-11-22T01:00:00Z";
            rows.push_back(row);
          }
  Store::Open(path, OpenMode::kReadWrite).Import(rows);
  return rows.size();
}

}  // namespace tuner::db
