// An application whose kernel is a C++ template (scaled_sum.cuh): it compiles one instantiation
// with NVRTC, launches it through tuner::Launch and checks the result. Run with
// TUNER_CAPTURE=app_scaled_sum, the capture's description names the kernel "app::scaled_sum<BLOCK,
// ITEMS>", and `tuner tune` instantiates it with each candidate's values.
//   templated_app [--n N]
#include <tuner/launch.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "nvrtc_kernel.h"

namespace {

constexpr const char* kName = "app_scaled_sum";
constexpr int kBlock = 256, kItems = 4;
constexpr float kAlpha = 1.5f;

std::string ReadSource() {
  std::ifstream in(SCALED_SUM_SOURCE);
  std::string source((std::istreambuf_iterator<char>(in)), {});
  if (source.empty()) throw std::runtime_error("cannot read " SCALED_SUM_SOURCE);
  return source;
}

cudaError_t LaunchScaledSum(cudaKernel_t kernel, float* out, const float* a, const float* b, int n) {
  const dim3 grid(static_cast<unsigned>((n + kBlock * kItems - 1) / (kBlock * kItems)));
  tuner::Launch launch(kName, kernel, grid, dim3(kBlock));
  const std::size_t count = static_cast<std::size_t>(n);
  launch.Out("out", out, count).In("a", a, count).In("b", b, count).Scalar("alpha", kAlpha).Scalar("n", n);
  launch.Source(SCALED_SUM_SOURCE, "app::scaled_sum<BLOCK, ITEMS>")
      .Size("N", n)
      .Param("BLOCK", kBlock, {64, 128, 256, 512})
      .Param("ITEMS", kItems, {1, 2, 4, 8})
      .Geometry({"cdiv(N, BLOCK * ITEMS)"}, {"BLOCK"})
      .Tolerance(0, 0);
  return launch.Run();
}

int Run(int n) {
  std::vector<float> a(static_cast<std::size_t>(n)), b(a.size()), out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.25f;
    b[i] = static_cast<float>(i % 7);
  }
  const cudaKernel_t kernel = example::CompileKernel(
      ReadSource(), "app::scaled_sum<" + std::to_string(kBlock) + ", " + std::to_string(kItems) + ">", {});
  float *d_out = nullptr, *d_a = nullptr, *d_b = nullptr;
  for (float** d : {&d_out, &d_a, &d_b}) example::Check(cudaMalloc(d, a.size() * sizeof(float)), "cudaMalloc");
  example::Check(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  example::Check(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  example::Check(LaunchScaledSum(kernel, d_out, d_a, d_b, n), "the scaled_sum launch");
  example::Check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (float* d : {d_out, d_a, d_b}) cudaFree(d);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) wrong += out[i] != kAlpha * a[i] + b[i];
  std::printf("scaled_sum of %d values: %s\n", n, wrong ? "WRONG" : "correct");
  return wrong ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 1 << 20;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      n = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: templated_app [--n N]\n");
      return 2;
    }
  }
  if (n <= 0) {
    std::fprintf(stderr, "templated_app: --n must be positive\n");
    return 2;
  }
  try {
    return Run(n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "templated_app: %s\n", e.what());
    return 1;
  }
}
