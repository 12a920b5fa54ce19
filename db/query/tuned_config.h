// tuner's application library: the best configuration that `tuner tune` stored for a kernel, the
// GPU the application runs on and its problem size, read from the tuner database.
//
//   #include <cuda_runtime.h>           // before this header: enables tuner::CurrentGpu()
//   #include <tuner/tuned_config.h>
//   auto configs = tuner::TunedConfigs::Open();  // $TUNER_DB, else ~/.local/share/tuner/tuner.db
//   tuner::TunedConfig c = configs.Lookup("transpose", tuner::CurrentGpu(), {8192, 8192});
//   if (c) launch with c.Param("TILE", 32), c.block, ...; c.note says where the numbers come from.
//
// The same fallbacks as `tuner query`: the exact size on this GPU, else the nearest tuned size
// (log-space distance per dimension), else another card of the same model, else another model
// of the same architecture. Results of an older version of the template are never used, nor results
// that failed a revalidation; c.FromOtherToolchain(tuner::ApplicationToolchain()) says whether the
// result was measured with another driver or runtime than the application's.
// CMake: find_package(tuner_query) and target_link_libraries(app PRIVATE tuner::query).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/gpu_identity.h"  // GpuIdentity, GpuFromProperties: installed as <tuner/base/gpu_identity.h>

namespace tuner {

#if defined(CUDART_VERSION)
// The current (or given) device of the CUDA runtime; an empty identity if it cannot be queried.
inline GpuIdentity CurrentGpu(int device = -1) {
  if (device < 0 && cudaGetDevice(&device) != cudaSuccess) return {};
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return {};
  return GpuFromProperties(prop);
}

// The driver and runtime this application runs with, as TunedConfig::toolchain writes them
// ("driver 13.0, runtime 12.9"), for TunedConfig::FromOtherToolchain.
inline std::string ApplicationToolchain() {
  const auto text = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  int driver = 0, runtime = 0;
  std::string toolchain;
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) toolchain = "driver " + text(driver);
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess && runtime > 0)
    toolchain += (toolchain.empty() ? "" : ", ") + std::string("runtime ") + text(runtime);
  return toolchain;
}
#endif

enum class TunedStatus { kFound, kOnlyStale, kNotFound };
enum class TunedFallback { kExact, kNearestSize, kSameModel, kSameArchitecture };
const char* ToString(TunedStatus status);      // "found", "only_stale", "not_found"
const char* ToString(TunedFallback fallback);  // "exact", "nearest_size", "same_model", "same_architecture"

struct TunedConfig {
  TunedStatus status = TunedStatus::kNotFound;
  TunedFallback fallback = TunedFallback::kExact;
  std::string note;  // one line: which fallback, from what size and GPU, or why nothing was found
  std::vector<std::pair<std::string, long long>> params;  // in the template's order
  // Launch geometry as measured, for `size_key`: when the fallback changed the size, compute the
  // grid for your own size (block and shared memory depend on the parameters only).
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  std::size_t shared_bytes = 0;
  double time_ms = 0;  // median
  double perf_value = 0;
  std::string perf_unit;  // "GB/s" or "GFLOP/s"
  std::string size_key;   // the tuned size these numbers come from: "8192x8192"
  std::string gpu_name;   // and the GPU
  std::string gpu_uuid;
  std::string template_hash;
  std::string measured_at;
  // How time_ms was taken: isolated, back_to_back or graph. Results of different modes are never
  // compared: each GPU and size is served in the mode it was most recently tuned in.
  std::string timing_mode;
  // What measured it: "driver 13.0, runtime 12.9, nvrtc 12.9" ("" for results stored before tuner
  // kept it, or only "nvrtc 12.9"). A driver, runtime or NVRTC upgrade can change the best
  // configuration: `tuner tune KERNEL --revalidate` measures the stored leaders again.
  std::string toolchain;

  explicit operator bool() const { return status == TunedStatus::kFound; }
  long long Param(const std::string& name, long long default_value) const;
  // Whether it was measured with another driver, runtime or NVRTC than `current` (the same form,
  // e.g. ApplicationToolchain()); only the parts both name are compared.
  bool FromOtherToolchain(const std::string& current) const;
};

class TunedConfigs {
 public:
  // Opens the database for reading only: `path`, else $TUNER_DB, else $XDG_DATA_HOME/tuner/tuner.db.
  // Never writes it, so a file the application cannot write, in a folder it cannot write, works.
  // Throws std::runtime_error naming the file and the problem (missing, not a tuner database,
  // written by a newer tuner); a corrupt page is found, and thrown, by the lookup that reads it.
  static TunedConfigs Open(const std::string& path = "");
  ~TunedConfigs();
  TunedConfigs(TunedConfigs&&) noexcept;
  TunedConfigs& operator=(TunedConfigs&&) noexcept;
  TunedConfigs(const TunedConfigs&) = delete;
  TunedConfigs& operator=(const TunedConfigs&) = delete;

  // The first lookup of a kernel reads its best rows; later lookups use memory. Thread-safe.
  TunedConfig Lookup(const std::string& kernel, const GpuIdentity& gpu, const std::vector<long long>& sizes) const;
  // By GPU name: the stored models whose name contains `gpu_name` (case-insensitive); the closest wins.
  // Results imported from another tool's file (`tuner import kernel-tuner-cache|t4`) were published,
  // not measured here: they are left out unless `imported` is kInclude (never for a GpuIdentity).
  enum class Imported { kExclude, kInclude };
  TunedConfig Lookup(const std::string& kernel, const std::string& gpu_name, const std::vector<long long>& sizes,
                     Imported imported = Imported::kExclude) const;
  // The dispatch table's entry for this size: of the smallest set of configurations that keeps
  // every tuned size of the GPU within 5% of its own best (`tuner tune --sizes`, `tuner report`),
  // the one assigned to the size Lookup would choose (the same fallbacks: an untuned size gets the
  // entry of the nearest tuned size, on the same GPU first). Its parameters, launch and time are
  // those measured at that size; `note` names the table and the entry. Where Lookup finds nothing,
  // the same answer. The first call for a kernel and GPU reads that GPU's `ok` rows of the kernel.
  TunedConfig Dispatch(const std::string& kernel, const GpuIdentity& gpu, const std::vector<long long>& sizes) const;
  const std::string& path() const;

 private:
  struct Impl;
  explicit TunedConfigs(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tuner
