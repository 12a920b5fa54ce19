// tuner occupancy: blocks per SM, occupancy, its limiter and what would raise it, for a built-in
// architecture (--arch, no GPU needed), a live GPU (--gpu) or a custom device (either plus overrides).
#include <iostream>
#include <map>
#include <optional>
#include <vector>
#include <stdexcept>
#include <string>

#include "cli.h"
#include "commands.h"
#include "device_limits.h"
#include "errors.h"
#include "occupancy.h"
#include "occupancy_curve.h"
#include "occupancy_output.h"
#include "template_library.h"
#include "template_resources.h"

namespace tuner {

namespace {

const CommandSpec kSpec{
    "occupancy",
    "tuner occupancy (--arch sm_XY | --gpu N) --threads T [--regs R] [--smem BYTES] [options]",
    "Blocks per SM, warps per SM, occupancy and the limiting resource of a kernel, computed with NVIDIA's\n"
    "cuda_occupancy.h, the block count each limit alone allows, and what would raise occupancy.\n"
    "Sizes take a K suffix (16K = 16384 bytes). Device overrides describe a custom device on top of\n"
    "--arch or --gpu. The example is a tiled matrix multiplication on a device with 16 KB of shared\n"
    "memory and 1536 threads per SM: TILE_WIDTH 32 (1024 threads, 8 KB per block) fits one block and\n"
    "leaves a third of the thread slots unused; with --threads 256 --smem 2K (TILE_WIDTH 16) 6 blocks\n"
    "fill the SM.",
    "tuner occupancy --arch sm_86 --threads-per-sm 1536 --smem-per-sm 16K --reserved-smem 0 "
    "--threads 1024 --regs 32 --smem 8K"};

// Device overrides: option name -> the DeviceLimits field it sets.
struct Override {
  const char* option;
  const char* help;
  long long min_value;
  void (*apply)(DeviceLimits*, long long);
};

const Override kOverrides[] = {
    {"threads-per-sm", "maximum resident threads per SM", 1,
     [](DeviceLimits* d, long long v) { d->max_threads_per_sm = int(v); }},
    {"max-blocks-per-sm", "maximum resident blocks per SM (at most the architecture's)", 1,
     [](DeviceLimits* d, long long v) { d->max_blocks_per_sm = int(v); }},
    {"regs-per-sm", "32-bit registers per SM", 1, [](DeviceLimits* d, long long v) { d->regs_per_sm = int(v); }},
    {"regs-per-block", "32-bit registers per block", 1, [](DeviceLimits* d, long long v) { d->regs_per_block = int(v); }},
    {"smem-per-sm", "shared memory per SM, bytes", 1, [](DeviceLimits* d, long long v) { d->smem_per_sm_bytes = v; }},
    {"smem-per-block", "shared memory per block without opt-in, bytes", 1,
     [](DeviceLimits* d, long long v) { d->smem_per_block_bytes = v; }},
    {"smem-per-block-optin", "shared memory per block with opt-in, bytes", 1,
     [](DeviceLimits* d, long long v) { d->smem_per_block_optin_bytes = v; }},
    {"reserved-smem", "shared memory the driver reserves per block, bytes", 0,
     [](DeviceLimits* d, long long v) { d->reserved_smem_per_block_bytes = v; }},
    {"max-threads-per-block", "maximum threads per block", 1,
     [](DeviceLimits* d, long long v) { d->max_threads_per_block = int(v); }},
};

constexpr int kOldestNvrtcArch = 75;  // NVRTC 13.0 starts at compute_75 (DESIGN.md)
constexpr long long kMaxValue = 1LL << 30;  // beyond any device, and inside the header's int arithmetic

// "4096", "16K", "16KiB", "16KB" (1024 bytes each) -> bytes; UsageError naming the option otherwise.
long long ParseCount(const std::string& option, const std::string& text, long long min_value) {
  long long value = 0;
  std::size_t used = 0;
  bool ok = true;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    ok = false;
  }
  const std::string suffix = ok ? text.substr(used) : "";
  const bool kibi = suffix == "K" || suffix == "k" || suffix == "KiB" || suffix == "KB";
  if (!ok || (!suffix.empty() && !kibi))
    throw UsageError("--" + option + " " + text + ": not a number (bytes may take a K suffix: 16K)");
  if (value < min_value || value > (kibi ? kMaxValue / 1024 : kMaxValue))
    throw UsageError("--" + option + " " + text + ": must be between " + std::to_string(min_value) + " and " +
                     std::to_string(kMaxValue));
  return kibi ? value * 1024 : value;
}

po::options_description MakeOptions() {
  po::options_description options("Options");
  options.add_options()
      ("arch", po::value<std::string>(), "a built-in architecture: sm_50 ... sm_121 (see --list-archs)")
      ("gpu", po::value<int>(), "a GPU of this machine (default 0 when --arch is not given)")
      ("list-archs", "print the built-in architectures and exit")
      ("threads", po::value<std::string>(), "threads per block")
      ("regs", po::value<std::string>()->default_value("0"), "registers per thread (from ptxas -v or the cubin)")
      ("smem", po::value<std::string>()->default_value("0"),
       "shared memory per block in bytes, static plus dynamic, before the driver's reserve")
      ("json", "print one JSON object instead of text")
      ("vary", po::value<std::string>(), "also print occupancy over threads, regs or smem")
      ("svg", po::value<std::string>(), "with --vary: write that curve as an SVG chart to FILE")
      ("kernel", po::value<std::string>(), "a kernel template: threads, registers and shared memory from its cubin")
      ("param", po::value<std::vector<std::string>>()->composing(), "with --kernel: NAME=VALUE (others: first value)")
      ("size", po::value<std::string>()->default_value(""), "with --kernel: problem size, e.g. 4096x4096x4096")
      ("templates", po::value<std::vector<std::string>>()->composing(), "also load templates from this folder");
  po::options_description device("Device overrides (a custom device)");
  for (const Override& o : kOverrides) device.add_options()(o.option, po::value<std::string>(), o.help);
  options.add(device);
  return options;
}

DeviceLimits BaseDevice(const po::variables_map& vm) {
  if (vm.count("arch") && vm.count("gpu")) throw UsageError("--arch and --gpu: give one of them, not both");
  if (vm.count("arch")) return ArchLimits(vm["arch"].as<std::string>());
  return LimitsFromGpu(vm.count("gpu") ? vm["gpu"].as<int>() : 0);
}

DeviceLimits MakeDevice(const po::variables_map& vm) {
  DeviceLimits device = BaseDevice(vm);
  const int arch_blocks = device.max_blocks_per_sm;
  bool custom = false;
  for (const Override& o : kOverrides) {
    if (!vm.count(o.option)) continue;
    o.apply(&device, ParseCount(o.option, vm[o.option].as<std::string>(), o.min_value));
    custom = true;
  }
  if (custom) device.name += " (custom)";
  if (device.max_blocks_per_sm > arch_blocks)
    std::cerr << "warning: cuda_occupancy.h allows at most " << arch_blocks << " blocks per SM on compute capability "
              << device.cc_major << "." << device.cc_minor << "; --max-blocks-per-sm above that has no effect\n";
  try {
    const std::size_t configured = ConfiguredSmemPerSmBytes(device);
    if (configured != device.smem_per_sm_bytes)
      std::cerr << "warning: cuda_occupancy.h configures " << configured << " bytes of shared memory per SM, the "
                << "next carveout size of this architecture above " << device.smem_per_sm_bytes << "\n";
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(custom ? "device overrides: " : "") + e.what());
  }
  return device;
}

KernelResources MakeKernel(const po::variables_map& vm) {
  if (!vm.count("threads")) throw UsageError("--threads: required (threads per block), or --kernel NAME");
  KernelResources kernel;
  kernel.threads_per_block = int(ParseCount("threads", vm["threads"].as<std::string>(), 1));
  kernel.regs_per_thread = int(ParseCount("regs", vm["regs"].as<std::string>(), 0));
  kernel.smem_bytes = std::size_t(ParseCount("smem", vm["smem"].as<std::string>(), 0));
  return kernel;
}

std::vector<std::string> Strings(const po::variables_map& vm, const char* option) {
  return vm.count(option) ? vm[option].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// --kernel: the template and its parameters are checked before the device, compiled after it.
struct TemplateRequest {
  TemplateSpec spec;
  ParamValues params;
  ProblemSize size;
};

TemplateRequest MakeTemplateRequest(const po::variables_map& vm) {
  for (const char* option : {"threads", "regs", "smem"})
    if (vm.count(option) && !vm[option].defaulted())
      throw UsageError(std::string("--") + option + ": --kernel takes it from the compiled template; give one of them");
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs(Strings(vm, "templates")));
  TemplateRequest request{library.Find(vm["kernel"].as<std::string>()), {}, {}};
  request.params = ParamsFromSettings(request.spec, Strings(vm, "param"));
  request.size = ParseProblemSize(request.spec, vm["size"].as<std::string>());
  return request;
}

nlohmann::json TemplateJson(const TemplateResources& r, const std::string& name) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [param, value] : r.params) params[param] = value;
  return {{"name", name}, {"params", params}, {"arch", r.arch}, {"block", r.geometry.block},
          {"regs_per_thread", r.info.regs_per_thread}, {"static_smem_bytes", r.info.static_smem_bytes},
          {"dynamic_smem_bytes", r.geometry.shared_bytes}, {"spill_bytes", r.info.spill_bytes},
          {"violated_constraints", r.violated_constraints}};
}

bool ParseVary(const po::variables_map& vm, VaryInput* input) {
  if (vm.count("svg") && !vm.count("vary")) throw UsageError("--svg: needs --vary threads|regs|smem");
  if (!vm.count("vary")) return false;
  const std::string text = vm["vary"].as<std::string>();
  if (!VaryInputFromString(text, input)) throw UsageError("--vary " + text + ": must be threads, regs or smem");
  return true;
}

// Compiles the template for the device's architecture; its resources replace `kernel`.
nlohmann::json ApplyTemplate(const TemplateRequest& request, const DeviceLimits& device, KernelResources* kernel) {
  if (device.cc_major * 10 + device.cc_minor < kOldestNvrtcArch)
    throw UsageError("--kernel: NVRTC compiles for sm_75 and newer, not for " + device.name + "; use --threads, "
                     "--regs and --smem for older architectures");
  const TemplateResources resources = ResourcesFromTemplate(request.spec, request.params, request.size, ArchOf(device));
  for (const std::string& c : resources.violated_constraints)
    std::cerr << "warning: outside the search space of " << request.spec.name << ": " << c << "\n";
  *kernel = resources.kernel;
  return TemplateJson(resources, request.spec.name);
}

}  // namespace

int RunOccupancy(int argc, char** argv) {
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, kSpec, MakeOptions(), {}, &vm)) return kExitOk;
  if (vm.count("list-archs")) {
    for (const std::string& arch : KnownArchs()) std::cout << arch << "\n";
    return kExitOk;
  }
  VaryInput input = VaryInput::kThreads;
  const bool vary = ParseVary(vm, &input);
  std::optional<TemplateRequest> request;
  KernelResources kernel;
  if (vm.count("kernel")) request = MakeTemplateRequest(vm);
  else kernel = MakeKernel(vm);
  const DeviceLimits device = MakeDevice(vm);
  const nlohmann::json source = request ? ApplyTemplate(*request, device, &kernel) : nlohmann::json();
  OccupancyReport report{device, kernel, ComputeOccupancy(device, kernel), SuggestImprovements(device, kernel), {}, {}, source};
  if (vary) {
    report.vary = input;
    report.curve = OccupancyCurve(device, kernel, input);
  }
  if (vm.count("svg")) {
    const std::string path = vm["svg"].as<std::string>();
    try {
      WriteSvgFile(CurveChart(device, kernel, input, report.curve), path);
    } catch (const std::runtime_error& e) {
      throw UsageError("--svg " + path + ": " + e.what());
    }
  }
  if (vm.count("json")) std::cout << OccupancyJson(report).dump(2) << "\n";
  else PrintOccupancy(report, std::cout);
  return kExitOk;
}

}  // namespace tuner
