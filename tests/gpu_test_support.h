// The one gate of every GPU test. Without enough usable GPUs a GPU test skips and says why, unless
// TUNER_REQUIRE_GPU promises them: then it fails, so a GPU run with a broken driver or a hidden
// device cannot pass green. TUNER_REQUIRE_GPU=N promises N GPUs; a test that needs more than N
// still skips (a two-GPU test on a one-GPU node).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cuda/device.h"

namespace tuner::testing {

enum class GpuVerdict { kRun, kSkip, kFail };

struct GpuGate {
  GpuVerdict verdict = GpuVerdict::kRun;
  std::string message;  // why it skips or fails
};

// `require` is TUNER_REQUIRE_GPU's value (nullptr when unset).
inline GpuGate DecideGpuTest(int needed, const GpuDiscovery& found, const char* require) {
  const std::string promised_text = require ? require : "";
  int promised = 0;
  if (!promised_text.empty()) {
    char* end = nullptr;
    const long value = std::strtol(promised_text.c_str(), &end, 10);
    if (*end != '\0' || value < 0 || value > 64)
      return {GpuVerdict::kFail, "TUNER_REQUIRE_GPU='" + promised_text + "' is not a number of GPUs (0 to 64)"};
    promised = static_cast<int>(value);
  }
  const int usable = static_cast<int>(found.gpus.size());
  if (usable >= needed) return {};
  const std::string why = usable == 0
                              ? "no usable GPU: " + found.problem
                              : "needs " + std::to_string(needed) + " GPUs; this machine has " + std::to_string(usable);
  if (needed <= promised)
    return {GpuVerdict::kFail, why + " (TUNER_REQUIRE_GPU=" + promised_text + " promised " + promised_text + ")"};
  return {GpuVerdict::kSkip, why};
}

inline GpuGate GateGpuTest(int needed) {
  return DecideGpuTest(needed, DiscoverGpus(), std::getenv("TUNER_REQUIRE_GPU"));
}

// Appends "Suite.Test: why" to the list that print_skips.sh shows after `ctest` (the file
// $TUNER_SKIP_RECORD, else the build's own), since CTest's summary names a skipped test but not why.
inline void RecordSkip(const std::string& why) {
  const char* path = std::getenv("TUNER_SKIP_RECORD");
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!test) return;
  std::ofstream(path ? path : TUNER_SKIP_RECORD_FILE, std::ios::app)
      << test->test_suite_name() << "." << test->name() << ": " << why << "\n";
}

}  // namespace tuner::testing

// First statement of a GPU test's body: GTEST_SKIP and FAIL return from the function they are in.
#define TUNER_GPU_TEST(needed)                                                       \
  do {                                                                               \
    const ::tuner::testing::GpuGate gate = ::tuner::testing::GateGpuTest(needed);    \
    if (gate.verdict == ::tuner::testing::GpuVerdict::kFail) FAIL() << gate.message; \
    if (gate.verdict == ::tuner::testing::GpuVerdict::kSkip) {                       \
      ::tuner::testing::RecordSkip(gate.message);                                    \
      GTEST_SKIP() << gate.message;                                                  \
    }                                                                                \
  } while (0)
