// A results database for the report tests, filled through the Store: a kernel on two GPUs and two
// sizes with every kind of failure, a template whose name is an HTML script, and a kernel whose
// candidates all failed.
#pragma once

#include <algorithm>
#include <string>

#include "db/query/store.h"
#include "db_test_util.h"
#include "reports/report_data.h"

namespace tuner::report::testing {

inline const std::string kEvil = "<script>alert(1)</script>";

inline db::MeasurementRecord Candidate(int tile, int rows, double time_ms, const std::string& status = "ok") {
  db::MeasurementRecord m = db::testing::SampleMeasurement(tile, time_ms, status);
  m.params_json = "{\"TILE\":" + std::to_string(tile) + ",\"ROWS\":" + std::to_string(rows) + "}";
  m.occupancy = tile * rows / 512.0;
  m.limiter = tile >= 64 ? "registers" : "warps";
  if (status != "ok") m.time_ms_median = m.perf_value = 0;
  return m;
}

// copy_gbps: the ceiling the sweep measured (0: none, as in sweeps before schema 3).
inline void AddTranspose(db::Store& store, std::int64_t gpu, std::int64_t templ, const std::string& size, double scale,
                         double copy_gbps) {
  db::SweepRecord record = db::testing::SampleSweep(size);
  record.copy_gbps = copy_gbps;
  const std::int64_t sweep = store.StartSweep(gpu, templ, record);
  for (int tile : {16, 32, 64})
    for (int rows : {1, 2, 4, 8})
      store.AddMeasurement(sweep, Candidate(tile, rows, scale * (1 + 0.1 * rows + 32.0 / tile)));
  db::MeasurementRecord bad = Candidate(128, 8, 0, "compile_error");
  bad.reason = "NVRTC failed: " + kEvil;
  bad.error_text = "line 1: error, \"quoted\"\nline 2: " + kEvil;
  store.AddMeasurement(sweep, bad);
  db::MeasurementRecord invalid = Candidate(128, 16, 0, "invalid");
  invalid.reason = "2048 threads per block exceed the limit of 1024";
  store.AddMeasurement(sweep, invalid);
  store.AddMeasurement(sweep, Candidate(8, 1, 0, "wrong_result"));
  store.FinishSweep(sweep, "done");
}

// Fills `path`: transpose (H100 and H200, 4096x4096 and 8192x8192; copy bandwidth stored for
// 8192x8192 only), kEvil (one ok, one invalid), matmul (H100, every candidate failed; H200 at
// 1980 MHz, one candidate at 33 TFLOP/s).
inline void FillReportDatabase(const std::string& path) {
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  const std::int64_t h100 = store.EnsureGpu(db::testing::SampleGpu("GPU-1111-aaaa", "NVIDIA H100 80GB HBM3"));
  db::GpuRecord h200_record = db::testing::SampleGpu("GPU-2222-bbbb", "NVIDIA H200");
  h200_record.memory_bytes = 150'000'000'000;
  h200_record.sm_clock_mhz = 1980;
  const std::int64_t h200 = store.EnsureGpu(h200_record);
  const std::int64_t transpose = store.EnsureTemplate({"transpose", "hash-transpose-1", ""});
  for (const char* size : {"4096x4096", "8192x8192"}) {
    AddTranspose(store, h100, transpose, size, size[0] == '4' ? 0.25 : 1.0, size[0] == '4' ? 0 : 2500);
    AddTranspose(store, h200, transpose, size, size[0] == '4' ? 0.2 : 0.8, size[0] == '4' ? 0 : 1250);
  }
  const std::int64_t evil = store.EnsureTemplate({kEvil, "hash-evil", ""});
  db::SweepRecord evil_sweep = db::testing::SampleSweep("1024");
  evil_sweep.command = "tuner tune '" + kEvil + "'";
  const std::int64_t sweep = store.StartSweep(h100, evil, evil_sweep);
  db::MeasurementRecord ok = Candidate(32, 4, 0.5);
  ok.params_json = "{\"" + kEvil + "\":\"" + kEvil + "\"}";
  ok.limiter = kEvil;
  store.AddMeasurement(sweep, ok);
  db::MeasurementRecord invalid = Candidate(64, 4, 0, "invalid");
  invalid.reason = kEvil;
  store.AddMeasurement(sweep, invalid);
  const std::int64_t matmul = store.EnsureTemplate({"matmul", "hash-matmul", ""});
  const std::int64_t matmul_sweep = store.StartSweep(h100, matmul, db::testing::SampleSweep("1024x1024x1024"));
  for (const char* status : {"fault", "timeout"}) {
    db::MeasurementRecord m = Candidate(status[0] == 'f' ? 16 : 32, 2, 0, status);
    m.perf_unit = "GFLOP/s";
    m.reason = std::string("the worker reported ") + status;
    store.AddMeasurement(matmul_sweep, m);
  }
  const std::int64_t h200_matmul = store.StartSweep(h200, matmul, db::testing::SampleSweep("1024x1024x1024"));
  db::MeasurementRecord fast = Candidate(32, 2, 0.065);
  fast.perf_unit = "GFLOP/s";
  fast.perf_value = 33000;
  store.AddMeasurement(h200_matmul, fast);
}

// One run of transpose with counters and energy for some candidates: the padded tile wins on bank
// conflicts, the larger tile on nothing measured.
inline db::MeasurementRow ProfiledRow(const std::string& params, double time_ms, const std::string& counters = "",
                                      double energy_j = 0) {
  db::MeasurementRow row;
  row.measurement.params_json = params;
  row.measurement.status = CandidateStatus::kOk;
  row.measurement.time_ms_median = time_ms;
  row.measurement.perf_value = 1000 / time_ms;
  row.measurement.perf_unit = "GB/s";
  row.measurement.counters_json = counters;
  row.measurement.energy_j = energy_j;
  return row;
}

inline Run TransposeRun() {
  Run run;
  run.gpu.name = "NVIDIA H100 80GB HBM3";
  run.size_key = "8192x8192";
  run.rows = {ProfiledRow(R"({"TILE":32,"PAD":1})", 0.194,
                          R"({"shared_bank_conflicts_per_request":0.07,"dram_throughput_pct":46})", 0.124),
              ProfiledRow(R"({"TILE":32,"PAD":0})", 0.312,
                          R"({"shared_bank_conflicts_per_request":15.7,"dram_throughput_pct":32})", 0.150),
              ProfiledRow(R"({"TILE":64,"PAD":1})", 0.25),
              ProfiledRow(R"({"TILE":64,"PAD":0})", 0.40, R"({"shared_bank_conflicts_per_request":15.7})")};
  run.rows[2].measurement.counters_json = R"({"shared_bank_conflicts_per_request":0.07,"dram_throughput_pct":45})";
  run.best = 0;
  return run;
}

// Counters with the speed of light and the roofline's counts, as the worker stores them: `sm` and
// `dram` per cent of peak, `gflop` counted FP32 giga-operations and `dram_gb` counted gigabytes in
// `ms` on an H100 (66908 GFLOP/s, 3352 GB/s).
inline std::string SpeedOfLightCounters(double sm, double dram, double gflop, double dram_gb, double ms) {
  return "{\"sm_throughput_pct\":" + std::to_string(sm) + ",\"dram_throughput_pct\":" + std::to_string(dram) +
         ",\"l2_throughput_pct\":30,\"l1_throughput_pct\":35,\"tensor_pipe_pct\":0,\"memory_throughput_pct\":" +
         std::to_string(std::max(dram, 35.0)) + ",\"fp32_flop_count\":" + std::to_string(gflop * 1e9) +
         ",\"fp64_flop_count\":0,\"dram_bytes\":" + std::to_string(dram_gb * 1e9) + ",\"profiled_ms\":" +
         std::to_string(ms) + ",\"fp32_peak_gflops\":66908,\"fp64_peak_gflops\":33454,\"dram_peak_gbps\":3352}";
}

// A compute-bound run measured in GB/s (point-in-polygon): the winner keeps the SM 75% busy and
// moves few bytes; a runner-up is memory-bound; a third was not counted.
inline Run PointInPolygonRun() {
  Run run;
  run.gpu.name = "NVIDIA H100 80GB HBM3";
  run.size_key = "1048576";
  run.rows = {ProfiledRow(R"({"BLOCK":256})", 2.0, SpeedOfLightCounters(75.4, 9.1, 60, 0.5, 2.0)),
              ProfiledRow(R"({"BLOCK":128})", 2.5, SpeedOfLightCounters(40, 88, 10, 6, 2.5)),
              ProfiledRow(R"({"BLOCK":64})", 3.0)};
  run.best = 0;
  run.ceiling.unit = "GB/s";
  run.ceiling.value = 3000;
  run.ceiling.source = "device-to-device copy bandwidth measured in the same sweep";
  return run;
}

}  // namespace tuner::report::testing
