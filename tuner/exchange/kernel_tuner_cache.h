// Kernel Tuner's cache file (kernel_tuner/util.py, store_cache): one JSON object with the GPU
// ("device_name"), the problem size, the tuning parameters ("tune_params_keys") and "cache", one
// entry per evaluated configuration: its parameters, "time" (the objective, in ms, or the failure:
// "CompilationFailedConfig", "RuntimeFailedConfig", "InvalidConfig"), "times" (the runs) and what the
// evaluation cost ("compile_time", "benchmark_time", ... in ms). Kernel Tuner writes one entry per
// line and closes the object only at the end, so an unfinished cache is read as Kernel Tuner reads it.
#pragma once

#include <string>

#include "exchange/imported_results.h"

namespace tuner {

// The file at `path` (gzipped or not). Throws ImportedFileError naming the line and field of the
// first problem, UsageError when the file cannot be read or is not JSON.
ImportedResults ReadKernelTunerCache(const std::string& path);

// The same from the file's text (for tests).
ImportedResults KernelTunerCacheFromText(const std::string& text, const std::string& path);

}  // namespace tuner
