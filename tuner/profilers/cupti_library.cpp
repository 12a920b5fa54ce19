#include "profilers/cupti_library.h"

namespace tuner {

std::vector<std::string> CuptiCandidates(const std::vector<std::string>& toolkit_dirs) {
  constexpr const char* kName = "libcupti.so.13";
  std::vector<std::string> candidates = {kName};
  for (const std::string& dir : toolkit_dirs)
    for (const char* sub :
         {"/lib64/", "/lib/", "/extras/CUPTI/lib64/", "/targets/x86_64-linux/lib/", "/targets/sbsa-linux/lib/"})
      candidates.push_back(dir + sub + kName);
  return candidates;
}

CuptiApi::CuptiApi(SharedLibrary loaded)
    : library(std::move(loaded)),
      GetResultString(library.Function<decltype(GetResultString)>("cuptiGetResultString")),
      ProfilerInitialize(library.Function<decltype(ProfilerInitialize)>("cuptiProfilerInitialize")),
      DeviceGetChipName(library.Function<decltype(DeviceGetChipName)>("cuptiDeviceGetChipName")),
      GetCounterAvailability(library.Function<decltype(GetCounterAvailability)>("cuptiProfilerGetCounterAvailability")),
      HostInitialize(library.Function<decltype(HostInitialize)>("cuptiProfilerHostInitialize")),
      HostDeinitialize(library.Function<decltype(HostDeinitialize)>("cuptiProfilerHostDeinitialize")),
      HostConfigAddMetrics(library.Function<decltype(HostConfigAddMetrics)>("cuptiProfilerHostConfigAddMetrics")),
      HostGetConfigImageSize(library.Function<decltype(HostGetConfigImageSize)>("cuptiProfilerHostGetConfigImageSize")),
      HostGetConfigImage(library.Function<decltype(HostGetConfigImage)>("cuptiProfilerHostGetConfigImage")),
      HostGetNumOfPasses(library.Function<decltype(HostGetNumOfPasses)>("cuptiProfilerHostGetNumOfPasses")),
      HostEvaluateToGpuValues(
          library.Function<decltype(HostEvaluateToGpuValues)>("cuptiProfilerHostEvaluateToGpuValues")),
      Enable(library.Function<decltype(Enable)>("cuptiRangeProfilerEnable")),
      Disable(library.Function<decltype(Disable)>("cuptiRangeProfilerDisable")),
      GetCounterDataSize(library.Function<decltype(GetCounterDataSize)>("cuptiRangeProfilerGetCounterDataSize")),
      CounterDataImageInitialize(
          library.Function<decltype(CounterDataImageInitialize)>("cuptiRangeProfilerCounterDataImageInitialize")),
      SetConfig(library.Function<decltype(SetConfig)>("cuptiRangeProfilerSetConfig")),
      Start(library.Function<decltype(Start)>("cuptiRangeProfilerStart")),
      Stop(library.Function<decltype(Stop)>("cuptiRangeProfilerStop")),
      PushRange(library.Function<decltype(PushRange)>("cuptiRangeProfilerPushRange")),
      PopRange(library.Function<decltype(PopRange)>("cuptiRangeProfilerPopRange")),
      DecodeData(library.Function<decltype(DecodeData)>("cuptiRangeProfilerDecodeData")),
      GetCounterDataInfo(library.Function<decltype(GetCounterDataInfo)>("cuptiRangeProfilerGetCounterDataInfo")) {}

CuptiApi LoadCupti() {
  std::string why_not;
  std::optional<SharedLibrary> library = SharedLibrary::OpenFirst(CuptiCandidates(ToolkitDirs()), &why_not);
  if (!library)
    throw CuptiError("CUPTI (libcupti.so.13) was not found: " + why_not +
                         "; install the CUDA toolkit's CUPTI or add its folder to LD_LIBRARY_PATH",
                     false);
  try {
    return CuptiApi(std::move(*library));
  } catch (const std::runtime_error& e) {
    throw CuptiError(e.what(), false);
  }
}

void CheckCupti(const CuptiApi& api, CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  api.GetResultString(result, &text);
  const bool privileges = result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  std::string message = std::string(call) + " failed: " + (text ? text : "CUPTI error " + std::to_string(result));
  if (privileges)
    message +=
        " (the driver lets only administrators read performance counters: NVreg_RestrictProfilingToAdminUsers=1; "
        "see https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  throw CuptiError(message, privileges);
}

}  // namespace tuner
