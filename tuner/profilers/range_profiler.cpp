#include "profilers/range_profiler.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <chrono>

#include "cuda/cuda_check.h"

namespace tuner {

namespace {

// A parameter block of CUPTI's profiler API: zeroed, with its size set.
template <typename P>
P Params(std::size_t struct_size) {
  P params{};
  params.structSize = struct_size;
  return params;
}

// Adds the time since the previous lap (or its construction) to `timing_ms[part]`.
class Laps {
 public:
  explicit Laps(std::map<std::string, double>& timing_ms) : timing_ms_(timing_ms) {}
  void Lap(const char* part) {
    const auto now = std::chrono::steady_clock::now();
    timing_ms_[part] += std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
  }

 private:
  std::map<std::string, double>& timing_ms_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

// Reached through the runtime: the binary does not link libcuda.
CUcontext RangeProfiler::CurrentContext() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  TUNER_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !function) throw CuptiError("the driver has no cuCtxGetCurrent", false);
  TUNER_CUDA_CHECK(cudaFree(nullptr));  // makes the device's primary context current
  CUcontext context = nullptr;
  if (reinterpret_cast<CUresult (*)(CUcontext*)>(function)(&context) != CUDA_SUCCESS || !context)
    throw CuptiError("no current CUDA context to profile", false);
  return context;
}

RangeProfiler::RangeProfiler(const CuptiApi& api, int device, CUcontext context, std::vector<std::string> metrics)
    : api_(api), context_(context), metrics_(std::move(metrics)) {
  for (const std::string& m : metrics_) names_.push_back(m.c_str());
  auto initialize = Params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  CheckCupti(api_, api_.ProfilerInitialize(&initialize), "cuptiProfilerInitialize");

  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  CheckCupti(api_, api_.DeviceGetChipName(&chip), "cuptiDeviceGetChipName");

  auto availability =
      Params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = context_;
  CheckCupti(api_, api_.GetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  std::vector<std::uint8_t> availability_image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = availability_image.data();
  CheckCupti(api_, api_.GetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");

  auto host = Params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability_image.data();
  CheckCupti(api_, api_.HostInitialize(&host), "cuptiProfilerHostInitialize");
  host_ = host.pHostObject;

  auto add =
      Params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host_;
  add.ppMetricNames = names_.data();
  add.numMetrics = names_.size();
  CheckCupti(api_, api_.HostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  auto size =
      Params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = host_;
  CheckCupti(api_, api_.HostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  config_.resize(size.configImageSize);
  auto image = Params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = host_;
  image.pConfigImage = config_.data();
  image.configImageSize = config_.size();
  CheckCupti(api_, api_.HostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage");
  auto passes =
      Params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.pConfigImage = config_.data();
  passes.configImageSize = config_.size();
  CheckCupti(api_, api_.HostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
  passes_ = passes.numOfPasses;
}

RangeProfiler::~RangeProfiler() {
  if (range_) {
    auto disable = Params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    disable.pRangeProfilerObject = range_;
    api_.Disable(&disable);
  }
  if (!host_) return;
  auto params = Params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  params.pHostObject = host_;
  api_.HostDeinitialize(&params);
}

std::vector<std::uint8_t> RangeProfiler::CounterDataImage(CUpti_RangeProfiler_Object* range, std::size_t ranges) const {
  auto size =
      Params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = range;
  size.pMetricNames = const_cast<const char**>(names_.data());
  size.numMetrics = names_.size();
  size.maxNumOfRanges = ranges;
  size.maxNumRangeTreeNodes = ranges;
  CheckCupti(api_, api_.GetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
  std::vector<std::uint8_t> data(size.counterDataSize);
  auto init = Params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = range;
  init.counterDataSize = data.size();
  init.pCounterData = data.data();
  CheckCupti(api_, api_.CounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
  return data;
}

// Every pass: each launch in its own range, its outputs prepared (and waited for) outside the range.
// The laps show where a replay goes: on an H100 the first pass's Start costs 150-210 ms (CUPTI's
// device-side setup), the later ones 2-20 ms, and each range about 1.5 ms besides its kernel.
void RangeProfiler::ReplayPasses(CUpti_RangeProfiler_Object* range, std::size_t count,
                                 const std::function<void()>& prepare,
                                 const std::function<void(std::size_t)>& launch) {
  Laps laps(timing_ms_);
  for (bool all_submitted = false, first = true; !all_submitted; first = false) {
    auto start = Params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = range;
    CheckCupti(api_, api_.Start(&start), "cuptiRangeProfilerStart");
    laps.Lap(first ? "replay_first_start" : "replay_later_starts");
    for (std::size_t i = 0; i < count; ++i) {
      prepare();
      TUNER_CUDA_CHECK(cudaDeviceSynchronize());
      auto push = Params<CUpti_RangeProfiler_PushRange_Params>(CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
      push.pRangeProfilerObject = range;
      const std::string name = "candidate " + std::to_string(i);
      push.pRangeName = name.c_str();
      CheckCupti(api_, api_.PushRange(&push), "cuptiRangeProfilerPushRange");
      launch(i);
      TUNER_CUDA_CHECK(cudaDeviceSynchronize());
      auto pop = Params<CUpti_RangeProfiler_PopRange_Params>(CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
      pop.pRangeProfilerObject = range;
      CheckCupti(api_, api_.PopRange(&pop), "cuptiRangeProfilerPopRange");
    }
    laps.Lap("replay_ranges");
    auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = range;
    CheckCupti(api_, api_.Stop(&stop), "cuptiRangeProfilerStop");
    laps.Lap("replay_stops");
    all_submitted = stop.isAllPassSubmitted != 0;
  }
}

CUpti_RangeProfiler_Object* RangeProfiler::Enabled() {
  if (range_) return range_;
  auto enable = Params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = context_;
  CheckCupti(api_, api_.Enable(&enable), "cuptiRangeProfilerEnable");
  range_ = enable.pRangeProfilerObject;
  return range_;
}

std::vector<std::map<std::string, double>> RangeProfiler::Profile(std::size_t count,
                                                                  const std::function<void()>& prepare,
                                                                  const std::function<void(std::size_t)>& launch) {
  if (count == 0) return {};
  timing_ms_.clear();
  Laps laps(timing_ms_);
  CUpti_RangeProfiler_Object* range = Enabled();
  laps.Lap("enable");
  std::vector<std::uint8_t> data = CounterDataImage(range, count);
  auto config = Params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = range;
  config.configSize = config_.size();
  config.pConfig = config_.data();
  config.counterDataImageSize = data.size();
  config.pCounterDataImage = data.data();
  config.range = CUPTI_UserRange;
  config.replayMode = CUPTI_UserReplay;
  config.maxRangesPerPass = count;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  CheckCupti(api_, api_.SetConfig(&config), "cuptiRangeProfilerSetConfig");
  laps.Lap("configure");
  ReplayPasses(range, count, prepare, launch);
  laps.Lap("replay");
  auto decode = Params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = range;
  CheckCupti(api_, api_.DecodeData(&decode), "cuptiRangeProfilerDecodeData");

  auto info =
      Params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  CheckCupti(api_, api_.GetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
  if (info.numTotalRanges != count)
    throw CuptiError(
        "CUPTI recorded " + std::to_string(info.numTotalRanges) + " ranges for " + std::to_string(count) + " launches",
        false);
  std::vector<std::map<std::string, double>> results;
  laps.Lap("decode");
  for (std::size_t i = 0; i < count; ++i) results.push_back(Evaluate(data, i));
  laps.Lap("evaluate");
  return results;
}

std::map<std::string, double> RangeProfiler::Evaluate(const std::vector<std::uint8_t>& data,
                                                      std::size_t range_index) const {
  std::vector<double> values(names_.size());
  auto evaluate = Params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  evaluate.pHostObject = host_;
  evaluate.pCounterDataImage = data.data();
  evaluate.counterDataImageSize = data.size();
  evaluate.ppMetricNames = const_cast<const char**>(names_.data());
  evaluate.numMetrics = names_.size();
  evaluate.rangeIndex = range_index;
  evaluate.pMetricValues = values.data();
  CheckCupti(api_, api_.HostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
  std::map<std::string, double> result;
  for (std::size_t i = 0; i < metrics_.size(); ++i) result[metrics_[i]] = values[i];
  return result;
}

}  // namespace tuner
