// CUPTI's profiler entry points, loaded at run time from libcupti.so.13: the binary starts and tunes
// where CUPTI is missing, only without counters.
#pragma once

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/toolkit_dirs.h"  // ToolkitDirs, for CuptiCandidates
#include "profilers/shared_library.h"

namespace tuner {

// Where libcupti.so.13 is looked for, in order: the loader's own search (LD_LIBRARY_PATH, the
// cache), then each toolkit folder (`toolkit_dirs`: $CUDA_HOME, $CUDA_PATH, the toolkit this binary
// was built with, /usr/local/cuda) in its lib64, lib, extras/CUPTI/lib64 and targets/*/lib.
std::vector<std::string> CuptiCandidates(const std::vector<std::string>& toolkit_dirs);

struct CuptiApi {
  SharedLibrary library;
  CUptiResult (*GetResultString)(CUptiResult, const char**);
  decltype(&cuptiProfilerInitialize) ProfilerInitialize;
  decltype(&cuptiDeviceGetChipName) DeviceGetChipName;
  decltype(&cuptiProfilerGetCounterAvailability) GetCounterAvailability;
  decltype(&cuptiProfilerHostInitialize) HostInitialize;
  decltype(&cuptiProfilerHostDeinitialize) HostDeinitialize;
  decltype(&cuptiProfilerHostConfigAddMetrics) HostConfigAddMetrics;
  decltype(&cuptiProfilerHostGetConfigImageSize) HostGetConfigImageSize;
  decltype(&cuptiProfilerHostGetConfigImage) HostGetConfigImage;
  decltype(&cuptiProfilerHostGetNumOfPasses) HostGetNumOfPasses;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) HostEvaluateToGpuValues;
  decltype(&cuptiRangeProfilerEnable) Enable;
  decltype(&cuptiRangeProfilerDisable) Disable;
  decltype(&cuptiRangeProfilerGetCounterDataSize) GetCounterDataSize;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) CounterDataImageInitialize;
  decltype(&cuptiRangeProfilerSetConfig) SetConfig;
  decltype(&cuptiRangeProfilerStart) Start;
  decltype(&cuptiRangeProfilerStop) Stop;
  decltype(&cuptiRangeProfilerPushRange) PushRange;
  decltype(&cuptiRangeProfilerPopRange) PopRange;
  decltype(&cuptiRangeProfilerDecodeData) DecodeData;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) GetCounterDataInfo;

  explicit CuptiApi(SharedLibrary loaded);
};

// Thrown by CUPTI calls. `insufficient_privileges`: the driver allows profiling only to
// administrators (NVreg_RestrictProfilingToAdminUsers=1).
struct CuptiError : std::runtime_error {
  CuptiError(const std::string& message, bool insufficient_privileges)
      : std::runtime_error(message), insufficient_privileges(insufficient_privileges) {}
  bool insufficient_privileges;
};

// Loads CUPTI, or throws CuptiError saying where it was looked for.
CuptiApi LoadCupti();

// Throws CuptiError naming the call and CUPTI's text for a failed result.
void CheckCupti(const CuptiApi& api, CUptiResult result, const char* call);

}  // namespace tuner
