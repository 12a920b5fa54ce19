// The cost of launching through tuner::Launch when nothing is captured, against a plain
// cudaLaunchKernel of the same empty kernel: batches of launches timed in turns (A B A B ...),
// medians per launch. Exit 0 when the difference is at most 1 us per launch, else 1; 3 without a GPU.
//   capture_benchmark [--batches N]      (run with and without TUNER_CAPTURE=another_kernel)
#include <cuda_runtime.h>
#include <tuner/launch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "example/nvrtc_kernel.h"

namespace {

constexpr int kLaunchesPerBatch = 200;
constexpr double kLimitUs = 1.0;
constexpr const char* kSource = "extern \"C\" __global__ void empty(float* out, const float* in, int n) {}\n";

using example::Check;

template <typename Fn>
double BatchUs(Fn launch) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kLaunchesPerBatch; ++i) Check(launch(), "launch");
  Check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
         kLaunchesPerBatch;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int batches = argc > 2 && std::string(argv[1]) == "--batches" ? std::atoi(argv[2]) : 500;
  try {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "capture_benchmark: no usable CUDA GPU\n");
      return 3;
    }
    const cudaKernel_t kernel = example::CompileKernel(kSource, "empty", {});
    float *out = nullptr, *in = nullptr;
    Check(cudaMalloc(&out, 1024 * sizeof(float)), "cudaMalloc");
    Check(cudaMalloc(&in, 1024 * sizeof(float)), "cudaMalloc");
    int n = 1024;
    const dim3 grid(4), block(256);
    auto plain = [&] {
      void* args[] = {&out, &in, &n};
      return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, 0, nullptr);
    };
    auto through_library = [&] {  // a realistic call: arguments and the description
      tuner::Launch launch("benchmark_empty", kernel, grid, block);
      launch.Out("out", out, 1024).In("in", static_cast<const float*>(in), 1024).Scalar("n", n);
      launch.Source("empty.cu", "empty")
          .Size("N", n)
          .Param("BLOCK", 256, {128, 256, 512})
          .Geometry({"cdiv(N, BLOCK)"}, {"BLOCK"});
      return launch.Run();
    };
    for (int i = 0; i < 20; ++i) BatchUs(plain), BatchUs(through_library);  // warm up
    std::vector<double> a, b;
    for (int i = 0; i < batches; ++i) {
      a.push_back(BatchUs(plain));
      b.push_back(BatchUs(through_library));
    }
    const double difference = Median(b) - Median(a);
    const char* requested = std::getenv("TUNER_CAPTURE");
    std::printf(
        "TUNER_CAPTURE=%s, %d batches of %d launches: plain cudaLaunchKernel %.3f us, tuner::Launch %.3f us, "
        "difference %+.3f us per launch (limit %.1f us): %s\n",
        requested ? requested : "(unset)", batches, kLaunchesPerBatch, Median(a), Median(b), difference, kLimitUs,
        difference <= kLimitUs ? "within" : "OVER");
    return difference <= kLimitUs ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "capture_benchmark: %s\n", e.what());
    return 1;
  }
}
