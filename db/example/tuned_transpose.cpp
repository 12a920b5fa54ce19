// An application that launches the shipped transpose kernel with the configuration tuner stored
// for the GPU it runs on (or the nearest one, as the note says), and checks the result.
//   tuned_transpose [--db PATH] [--size WxH]
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <tuner/tuned_config.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void Check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(call) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

// When nothing is tuned the application still runs, with a reasonable default.
std::vector<std::pair<std::string, long long>> ParamsOrDefault(const tuner::TunedConfig& config) {
  if (config) return config.params;
  return {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}};
}

long long ParamOf(const std::vector<std::pair<std::string, long long>>& params, const std::string& name,
                  long long value) {
  for (const auto& [key, v] : params)
    if (key == name) value = v;
  return value;
}

std::vector<char> CompileCubin(const std::vector<std::pair<std::string, long long>>& params,
                               const tuner::GpuIdentity& gpu) {
  std::ifstream file(TRANSPOSE_SOURCE);
  const std::string source((std::istreambuf_iterator<char>(file)), {});
  if (source.empty()) throw std::runtime_error("cannot read " TRANSPOSE_SOURCE);
  nvrtcProgram program;
  nvrtcCreateProgram(&program, source.c_str(), "transpose.cu", 0, nullptr, nullptr);
  std::vector<std::string> options = {"-arch=" + gpu.Arch()};
  for (const auto& [name, value] : params) options.push_back("-D" + name + "=" + std::to_string(value));
  std::vector<const char*> pointers;
  for (const std::string& o : options) pointers.push_back(o.c_str());
  if (nvrtcCompileProgram(program, static_cast<int>(pointers.size()), pointers.data()) != NVRTC_SUCCESS) {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    throw std::runtime_error("NVRTC failed:\n" + log);
  }
  std::size_t size = 0;
  nvrtcGetCUBINSize(program, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(program, cubin.data());
  nvrtcDestroyProgram(&program);
  return cubin;
}

// Launches the kernel once on a W x H matrix and returns the number of wrong elements.
long long LaunchAndCheck(const std::vector<char>& cubin, long long tile, long long rows, int w, int h) {
  cudaLibrary_t library;
  Check(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cudaLibraryLoadData");
  cudaKernel_t kernel;
  Check(cudaLibraryGetKernel(&kernel, library, "transpose"), "cudaLibraryGetKernel");
  const std::size_t count = static_cast<std::size_t>(w) * h;
  std::vector<float> in(count), out(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<float>(i % 1000);
  float *d_in = nullptr, *d_out = nullptr;
  Check(cudaMalloc(&d_in, count * sizeof(float)), "cudaMalloc");
  Check(cudaMalloc(&d_out, count * sizeof(float)), "cudaMalloc");
  Check(cudaMemcpy(d_in, in.data(), count * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  // The grid is computed for this size (the stored one is for the tuned size); block from the params.
  const dim3 grid(static_cast<unsigned>((w + tile - 1) / tile), static_cast<unsigned>((h + tile - 1) / tile));
  const dim3 block(static_cast<unsigned>(tile), static_cast<unsigned>(rows));
  void* args[] = {&d_out, &d_in, &w, &h};
  Check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, 0, nullptr), "cudaLaunchKernel");
  Check(cudaMemcpy(out.data(), d_out, count * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  long long wrong = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      wrong += out[static_cast<std::size_t>(x) * h + y] != in[static_cast<std::size_t>(y) * w + x];
  cudaFree(d_in);
  cudaFree(d_out);
  cudaLibraryUnload(library);
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db, size = "8192x8192";
  for (int i = 1; i + 1 < argc; i += 2) (std::string(argv[i]) == "--db" ? db : size) = argv[i + 1];
  const int w = std::atoi(size.c_str()), h = std::atoi(size.c_str() + size.find('x') + 1);
  try {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "tuned_transpose: no usable CUDA GPU here; this example launches a kernel\n");
      return 3;
    }
    const tuner::GpuIdentity gpu = tuner::CurrentGpu();
    const tuner::TunedConfig config = tuner::TunedConfigs::Open(db).Lookup("transpose", gpu, {w, h});
    std::printf("%s on %s: %s\n", ToString(config.status), gpu.name.c_str(), config.note.c_str());
    if (config.FromOtherToolchain(tuner::ApplicationToolchain()))  // a driver or runtime upgrade since tuning
      std::printf("tuned with %s, running with %s: 'tuner tune transpose --revalidate' measures it again\n",
                  config.toolchain.c_str(), tuner::ApplicationToolchain().c_str());
    const auto params = ParamsOrDefault(config);
    for (const auto& [name, value] : params) std::printf("  %s=%lld", name.c_str(), value);
    std::printf("\n");
    const long long tile = ParamOf(params, "TILE", 32), rows = ParamOf(params, "ROWS", 8);
    const long long wrong = LaunchAndCheck(CompileCubin(params, gpu), tile, rows, w, h);
    std::printf("transposed %dx%d: %s\n", w, h, wrong == 0 ? "correct" : "WRONG");
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tuned_transpose: %s\n", e.what());
    return 1;
  }
}
