// Helpers for the store tests: a temporary folder removed at the end, sample records, file bytes
// and the side files SQLite may leave beside a database.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "db/query/measurement_fields.h"
#include "db/query/records.h"
#include "db/query/sqlite.h"

namespace tuner::db::testing {

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("tuner-test-" + std::to_string(getpid()) + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The -wal, -shm and -journal files beside `path`: a reader must never leave any.
inline std::vector<std::string> SideFiles(const std::string& path) {
  std::vector<std::string> found;
  for (const char* suffix : {"-wal", "-shm", "-journal"})
    if (std::filesystem::exists(path + suffix)) found.push_back(path + suffix);
  return found;
}

// Leaves the file in `mode` ("wal" or "delete"). A file left in WAL mode without its -wal is what
// every writer before schema 5 left behind, and what readers who cannot write found unreadable.
inline void SetJournalMode(const std::string& path, const std::string& mode) {
  sql::Connection connection(path, sql::Connection::Mode::kReadWrite);
  connection.Execute("PRAGMA journal_mode = " + mode);
}

inline GpuRecord SampleGpu(const std::string& uuid = "GPU-1111", const std::string& name = "NVIDIA H100 80GB HBM3") {
  GpuRecord gpu;
  gpu.uuid = uuid;
  gpu.name = name;
  gpu.cc_major = 9;
  gpu.cc_minor = 0;
  gpu.sm_count = 132;
  gpu.memory_bytes = 85'000'000'000;
  gpu.driver_version = "13.0";
  gpu.cuda_version = "13.0";
  return gpu;
}

inline SweepRecord SampleSweep(const std::string& size_key = "8192x8192") {
  SweepRecord sweep;
  sweep.command = "tuner tune transpose";
  sweep.strategy = "brute_force";
  sweep.size_key = size_key;
  sweep.status = "running";
  sweep.tool_version = "0.1.0";
  return sweep;
}

inline MeasurementRecord SampleMeasurement(int tile, double time_ms, const std::string& status = "ok") {
  MeasurementRecord m;
  m.params_json = "{\"TILE\":" + std::to_string(tile) + ",\"ROWS\":4}";
  m.launch_json = "{\"grid\":[128,128,1],\"block\":[" + std::to_string(tile) + ",4,1],\"shared_bytes\":0}";
  m.status = CandidateStatusFromText(status);
  m.time_ms_median = time_ms;
  m.time_ms_min = time_ms * 0.99;
  m.time_ms_max = time_ms * 1.01;
  m.time_ms_spread = 0.01;
  m.samples = 20;
  m.perf_value = 1000.0 / time_ms;
  m.perf_unit = "GB/s";
  m.regs_per_thread = 32;
  m.smem_bytes = 4096;
  m.blocks_per_sm = 8;
  m.occupancy = 0.5;
  m.limiter = "warps";
  m.compile_ms = 30;
  m.measured_at = "2026-11-22T01:00:00Z";
  return m;
}

// A record with every field of the table set to a value of its own, none a new record's: the JSON
// texts objects, the status wrong_result, the energy measured.
inline MeasurementRecord EveryFieldSet() {
  MeasurementRecord m;
  int n = 1;
  for (const MeasurementField& field : MeasurementFields()) {
    const std::string text = field.content == FieldContent::kJsonText
                                 ? "{\"" + std::string(field.name) + "\":" + std::to_string(n) + "}"
                                 : std::string(field.name) + " " + std::to_string(n);
    VisitField(field, m, [&](auto& value) {
      using T = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<T, std::string>) value = text;
      if constexpr (std::is_same_v<T, CandidateStatus>) value = CandidateStatus::kWrongResult;
      if constexpr (std::is_arithmetic_v<T>) value = static_cast<T>(n * 1.5);
    });
    ++n;
  }
  return m;
}

// The names of the table's fields in which `a` and `b` differ.
inline std::vector<std::string> DifferingFields(const MeasurementRecord& a, const MeasurementRecord& b) {
  std::vector<std::string> names;
  for (const MeasurementField& field : MeasurementFields())
    std::visit(
        [&](auto member) {
          if (!(a.*member == b.*member)) names.push_back(field.name);
        },
        field.member);
  return names;
}

}  // namespace tuner::db::testing
