// An application with a data-dependent kernel, tuned on its own data:
//   TUNER_CAPTURE=app_histogram histogram_app --skew 0.9     # writes ./capture-app_histogram
//   tuner tune app_histogram --templates capture-app_histogram
//   histogram_app --skew 0.9                                 # launches with the tuned configuration
// At several sizes (each size's first launch is captured; the dispatch table serves them all):
//   TUNER_CAPTURE=app_histogram histogram_app --sizes 1048576x256,65536x256,16777216x4096
//   tuner tune app_histogram --templates capture-app_histogram --sizes captured
// It counts N values into BINS bins with the shipped histogram kernel (kernel_templates/histogram.cu),
// launched through tuner::Launch, looks its configuration up with tuner::TunedConfigs, and checks
// its output against a histogram counted on the CPU. Exit 0 correct, 1 wrong or failed, 3 no GPU.
//   histogram_app [--n N] [--bins B | --sizes NxB,NxB,...] [--skew S] [--seed X] [--db PATH]
// The configuration is the tuned dispatch table's entry for the size (TunedConfigs::Dispatch).
// --skew S: the share of values in one bin (0: uniform over the bins).
#include <cuda_runtime.h>
#include <tuner/launch.h>
#include <tuner/tuned_config.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "nvrtc_kernel.h"

namespace {

using example::Check;

constexpr const char* kName = "app_histogram";
constexpr unsigned kHotBin = 7;

struct Size {
  int n = 1 << 24;
  int bins = 256;
};

struct Options {
  std::vector<Size> sizes;  // --sizes, else the one of --n and --bins
  double skew = 0;
  unsigned seed = 1;
  std::string db;
};

// "1048576x256,65536x256"
std::vector<Size> ParseSizes(const std::string& list) {
  std::vector<Size> sizes;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    const std::size_t x = item.find('x');
    if (x == std::string::npos) throw std::runtime_error("--sizes: '" + item + "' is not NxBINS");
    sizes.push_back({std::atoi(item.substr(0, x).c_str()), std::atoi(item.substr(x + 1).c_str())});
    start = comma + 1;
  }
  return sizes;
}

Options Parse(int argc, char** argv) {
  Options o;
  Size one;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--n")
      one.n = std::atoi(value.c_str());
    else if (key == "--bins")
      one.bins = std::atoi(value.c_str());
    else if (key == "--sizes")
      o.sizes = ParseSizes(value);
    else if (key == "--skew")
      o.skew = std::atof(value.c_str());
    else if (key == "--seed")
      o.seed = static_cast<unsigned>(std::atoi(value.c_str()));
    else if (key == "--db")
      o.db = value;
    else
      throw std::runtime_error("unknown option " + key);
  }
  if (o.sizes.empty()) o.sizes = {one};
  for (const Size& size : o.sizes)
    if (size.n <= 0 || size.bins <= 0) throw std::runtime_error("--n, --bins and --sizes: sizes > 0");
  if (o.skew < 0 || o.skew > 1) throw std::runtime_error("--skew in [0, 1]");
  return o;
}

std::vector<unsigned> MakeData(const Options& o, const Size& size) {
  std::mt19937 random(o.seed);
  std::uniform_int_distribution<unsigned> bin(0, static_cast<unsigned>(size.bins - 1));
  std::bernoulli_distribution hot(o.skew);
  std::vector<unsigned> data(static_cast<std::size_t>(size.n));
  for (unsigned& v : data) v = hot(random) ? kHotBin % static_cast<unsigned>(size.bins) : bin(random);
  return data;
}

// The tuned configuration for this GPU and size (the dispatch table's entry), or the application's own default.
std::vector<std::pair<std::string, long long>> Configuration(const Options& o, const Size& size) {
  const tuner::GpuIdentity gpu = tuner::CurrentGpu();
  // The default: a private histogram in shared memory where it fits, warp-aggregated global atomics where not.
  const long long variant = size.bins * 4 <= 49152 ? 1 : 3;
  std::vector<std::pair<std::string, long long>> params = {{"VARIANT", variant}, {"BLOCK", 256}, {"ITEMS", 4}};
  try {
    const tuner::TunedConfig config = tuner::TunedConfigs::Open(o.db).Dispatch(kName, gpu, {size.n, size.bins});
    std::printf("configuration: %s (%s)\n", config ? "tuned" : "default", config.note.c_str());
    if (config) params = config.params;
  } catch (const std::exception& e) {  // no database yet: the default
    std::printf("configuration: default (%s)\n", e.what());
  }
  return params;
}

long long Param(const std::vector<std::pair<std::string, long long>>& params, const char* name) {
  for (const auto& [key, value] : params)
    if (key == name) return value;
  throw std::runtime_error(std::string("the configuration has no ") + name);
}

std::string ReadSource() {
  std::ifstream in(HISTOGRAM_SOURCE);
  std::string source((std::istreambuf_iterator<char>(in)), {});
  if (source.empty()) throw std::runtime_error("cannot read " HISTOGRAM_SOURCE);
  return source;
}

// One launch through tuner::Launch: the arguments, and what a capture needs to describe it.
cudaError_t LaunchHistogram(cudaKernel_t kernel, const std::vector<std::pair<std::string, long long>>& params,
                            unsigned* bins, const unsigned* data, int n, int nbins) {
  const long long variant = Param(params, "VARIANT"), block = Param(params, "BLOCK"), items = Param(params, "ITEMS");
  const dim3 grid(static_cast<unsigned>((n + block * items - 1) / (block * items)));
  const std::size_t shared_bytes = variant == 1 || variant == 2 ? static_cast<std::size_t>(nbins) * 4 : 0;
  tuner::Launch launch(kName, kernel, grid, dim3(static_cast<unsigned>(block)), shared_bytes);
  launch.InOut("bins", bins, static_cast<std::size_t>(nbins)).In("data", data, static_cast<std::size_t>(n));
  launch.Scalar("n", n).Scalar("nbins", nbins);
  launch.Source(HISTOGRAM_SOURCE, "histogram")
      .Size("N", n)
      .Size("BINS", nbins)
      .Param("VARIANT", variant, {0, 1, 2, 3})
      .Param("BLOCK", block, {128, 256, 512, 1024})
      .Param("ITEMS", items, {1, 4, 16, 64})
      .Constraint("VARIANT == 0 || VARIANT == 3 || BINS * 4 <= 49152")
      .Geometry({"cdiv(N, BLOCK * ITEMS)"}, {"BLOCK"}, "(VARIANT == 1 || VARIANT == 2) ? BINS * 4 : 0");
  return launch.Run();
}

int RunSize(const Options& o, const Size& size) {
  const std::vector<unsigned> data = MakeData(o, size);
  const auto params = Configuration(o, size);
  for (const auto& [name, value] : params) std::printf("  %s=%lld", name.c_str(), value);
  std::printf("\n");
  std::vector<std::string> defines;
  for (const auto& [name, value] : params) defines.push_back("-D" + name + "=" + std::to_string(value));
  const cudaKernel_t kernel = example::CompileKernel(ReadSource(), "histogram", defines);
  unsigned *d_data = nullptr, *d_bins = nullptr;
  Check(cudaMalloc(&d_data, data.size() * sizeof(unsigned)), "cudaMalloc");
  Check(cudaMalloc(&d_bins, static_cast<std::size_t>(size.bins) * sizeof(unsigned)), "cudaMalloc");
  Check(cudaMemcpy(d_data, data.data(), data.size() * sizeof(unsigned), cudaMemcpyHostToDevice), "cudaMemcpy");
  Check(cudaMemset(d_bins, 0, static_cast<std::size_t>(size.bins) * sizeof(unsigned)), "cudaMemset");
  Check(LaunchHistogram(kernel, params, d_bins, d_data, size.n, size.bins), "the histogram launch");
  std::vector<unsigned> bins(static_cast<std::size_t>(size.bins)), expected(static_cast<std::size_t>(size.bins), 0);
  Check(cudaMemcpy(bins.data(), d_bins, bins.size() * sizeof(unsigned), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (unsigned v : data) ++expected[v];
  cudaFree(d_data);
  cudaFree(d_bins);
  const bool correct = bins == expected;
  std::printf("histogram of %d values into %d bins (skew %.2f): %s\n", size.n, size.bins, o.skew,
              correct ? "correct" : "WRONG");
  return correct ? 0 : 1;
}

int Run(const Options& o) {
  int status = 0;
  for (const Size& size : o.sizes) status = std::max(status, RunSize(o, size));
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = Parse(argc, argv);
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "histogram_app: no usable CUDA GPU here\n");
      return 3;
    }
    return Run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "histogram_app: %s\n", e.what());
    return 1;
  }
}
