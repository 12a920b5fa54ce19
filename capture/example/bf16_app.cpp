// An application whose buffers and scalar are bfloat16: it compiles the shipped add_scale_bf16
// kernel with NVRTC, launches it through tuner::Launch on __nv_bfloat16 arrays, and checks the result
// against (x + y) * alpha rounded once. Run with TUNER_CAPTURE=app_add_scale_bf16, the capture holds
// bfloat16 files (ml_dtypes' name) and a bfloat16 scalar, and `tuner tune` checks every candidate in
// bfloat16 against the application's own output.
//   bf16_app [--n N]
#include <tuner/launch.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "nvrtc_kernel.h"

namespace {

constexpr const char* kName = "app_add_scale_bf16";
constexpr int kVecBytes = 16, kItems = 2, kBlock = 256;

std::string ReadSource() {
  std::ifstream in(ADD_SCALE_BF16_SOURCE);
  std::string source((std::istreambuf_iterator<char>(in)), {});
  if (source.empty()) throw std::runtime_error("cannot read " ADD_SCALE_BF16_SOURCE);
  return source;
}

cudaError_t LaunchAddScale(cudaKernel_t kernel, __nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y,
                           __nv_bfloat16 alpha, long long n) {
  const long long vectors = (n + kVecBytes / 2 - 1) / (kVecBytes / 2);
  const dim3 grid(static_cast<unsigned>((vectors + kBlock * kItems - 1) / (kBlock * kItems)));
  tuner::Launch launch(kName, kernel, grid, dim3(kBlock));
  const std::size_t count = static_cast<std::size_t>(n);
  launch.Out("out", out, count)
      .In("x", x, count)
      .In("y", y, count)
      .Scalar("alpha", alpha)
      .Scalar("n", static_cast<std::int64_t>(n));
  launch.Source(ADD_SCALE_BF16_SOURCE, "add_scale_bf16")
      .Size("N", n)
      .Param("VEC_BYTES", kVecBytes, {2, 8})
      .Param("ITEMS", kItems, {1, 4})
      .Param("BLOCK", kBlock, {128})
      .Geometry({"cdiv(cdiv(N, VEC_BYTES / 2), BLOCK * ITEMS)"}, {"BLOCK"});
  return launch.Run();
}

int Run(long long n) {
  std::vector<__nv_bfloat16> x(static_cast<std::size_t>(n)), y(x.size()), out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = __float2bfloat16(static_cast<float>(i % 1000) * 0.125f - 60);
    y[i] = __float2bfloat16(static_cast<float>(i % 7) * 0.3f);
  }
  const __nv_bfloat16 alpha = __float2bfloat16(1.5f);
  const std::string macros[] = {"-DVEC_BYTES=" + std::to_string(kVecBytes), "-DITEMS=" + std::to_string(kItems),
                                "-DBLOCK=" + std::to_string(kBlock)};
  const cudaKernel_t kernel = example::CompileKernel(ReadSource(), "add_scale_bf16", {macros[0], macros[1], macros[2]});
  const std::size_t bytes = x.size() * sizeof(__nv_bfloat16);
  __nv_bfloat16 *d_out = nullptr, *d_x = nullptr, *d_y = nullptr;
  for (__nv_bfloat16** d : {&d_out, &d_x, &d_y}) example::Check(cudaMalloc(d, bytes), "cudaMalloc");
  example::Check(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  example::Check(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  example::Check(LaunchAddScale(kernel, d_out, d_x, d_y, alpha, n), "the add_scale_bf16 launch");
  example::Check(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (__nv_bfloat16* d : {d_out, d_x, d_y}) cudaFree(d);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const float expected = (__bfloat162float(x[i]) + __bfloat162float(y[i])) * 1.5f;
    wrong += __bfloat162float(out[i]) != __bfloat162float(__float2bfloat16(expected));
  }
  std::printf("add_scale_bf16 of %lld values: %s\n", n, wrong ? "WRONG" : "correct");
  return wrong ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  long long n = (1 << 20) + 3;  // a tail past the last whole vector
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      n = std::atoll(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: bf16_app [--n N]\n");
      return 2;
    }
  }
  if (n <= 0) {
    std::fprintf(stderr, "bf16_app: --n must be positive\n");
    return 2;
  }
  try {
    return Run(n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bf16_app: %s\n", e.what());
    return 1;
  }
}
