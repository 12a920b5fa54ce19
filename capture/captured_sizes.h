// The sizes of one kernel a process captures: the first launch of each distinct size (the values
// its launch call gave with Size()), at most kMaxCapturedSizes. The first size makes the capture
// folder as ever; each further size is added to that folder under sizes/SIZE (built hidden, moved
// into place complete) and the description is rewritten to name it. Host files only, no CUDA: the
// launch's own work (copying buffers, launching) is the `capture` callback, which the tests fake.
#pragma once

#include <functional>
#include <set>
#include <string>

#include "capture_description.h"
#include "capture_folder.h"

namespace tuner::capture {

// What a launch of a requested kernel does with its size.
enum class SizeClaim {
  kFirst,      // no capture of the kernel yet: capture it into a new folder
  kFurther,    // a new size: add it to the capture
  kSeen,       // this size was launched before (captured or not): launch only
  kOverBound,  // a new size beyond kMaxCapturedSizes: launch only
};

struct KernelCapture {
  std::string folder;          // the committed capture; "" until its first size is captured
  CapturedLaunch launch;       // the first size, with the further ones in more_sizes
  std::set<std::string> seen;  // size keys launched so far
  bool told_bound = false;     // the bound was reported on stderr
};

// Records `size_key` as seen and says what to do with the launch.
SizeClaim ClaimSize(KernelCapture& kernel, const std::string& size_key);

// Writes a further size's buffers into `folder` (data/ and expected/, as InputFile and ExpectedFile
// name them; every In and InOut buffer, zeros too) and returns its arguments with counts, values
// and initially_zero; launches the kernel in between.
using CaptureBuffers = std::function<std::vector<CapturedArg>(CaptureFolder& folder)>;

// Adds a further size (`size.sizes`) to the committed capture: the arguments `capture` returns must
// be the first size's (names, roles, types); throws CaptureError naming the problem, leaving the
// capture as it was.
// Returns the size's folder.
std::string AddFurtherSize(KernelCapture& kernel, const CapturedSize& size, const CaptureBuffers& capture);

}  // namespace tuner::capture
