// tuner occupancy: blocks per SM, occupancy, its limiter and what would raise it, for a built-in
// architecture (--arch, no GPU needed), a live GPU (--gpu) or a custom device (either plus overrides).
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/target_device.h"
#include "base/errors.h"
#include "common/option_values.h"
#include "explore/template_resources.h"
#include "occupancy/occupancy.h"
#include "occupancy/occupancy_curve.h"
#include "occupancy/occupancy_output.h"
#include "template/template_library.h"

namespace tuner {

namespace {

const CommandSpec kSpec{
    "occupancy", "tuner occupancy (--arch sm_XY | --gpu N) --threads T [--regs R] [--smem BYTES] [options]",
    "Blocks per SM, warps per SM, occupancy and the limiting resource of a kernel, computed with NVIDIA's\n"
    "cuda_occupancy.h, the block count each limit alone allows, and what would raise occupancy.\n"
    "Sizes take a K suffix (16K = 16384 bytes). Device overrides describe a custom device on top of\n"
    "--arch or --gpu. The example is a tiled matrix multiplication on a device with 16 KB of shared\n"
    "memory and 1536 threads per SM: TILE_WIDTH 32 (1024 threads, 8 KB per block) fits one block and\n"
    "leaves a third of the thread slots unused; with --threads 256 --smem 2K (TILE_WIDTH 16) 6 blocks\n"
    "fill the SM.",
    "tuner occupancy --arch sm_86 --threads-per-sm 1536 --smem-per-sm 16K --reserved-smem 0 "
    "--threads 1024 --regs 32 --smem 8K"};

// Device overrides: option name -> the DeviceLimits field it reads and sets. Each takes values
// from `min_value` to the field's largest figure in the built-in table (LargestLimits).
struct Override {
  const char* option;
  const char* help;
  bool bytes;  // takes a K suffix
  long long min_value;
  long long (*get)(const DeviceLimits&);
  void (*set)(DeviceLimits*, long long);
};

const Override kOverrides[] = {
    {"threads-per-sm", "maximum resident threads per SM", false, 32,
     [](const DeviceLimits& d) -> long long { return d.max_threads_per_sm; },
     [](DeviceLimits* d, long long v) { d->max_threads_per_sm = int(v); }},
    {"max-blocks-per-sm", "maximum resident blocks per SM (at most the architecture's)", false, 1,
     [](const DeviceLimits& d) -> long long { return d.max_blocks_per_sm; },
     [](DeviceLimits* d, long long v) { d->max_blocks_per_sm = int(v); }},
    {"regs-per-sm", "32-bit registers per SM", false, 256,
     [](const DeviceLimits& d) -> long long { return d.regs_per_sm; },
     [](DeviceLimits* d, long long v) { d->regs_per_sm = int(v); }},
    {"regs-per-block", "32-bit registers per block", false, 256,
     [](const DeviceLimits& d) -> long long { return d.regs_per_block; },
     [](DeviceLimits* d, long long v) { d->regs_per_block = int(v); }},
    {"smem-per-sm", "shared memory per SM, bytes", true, 1,
     [](const DeviceLimits& d) -> long long { return static_cast<long long>(d.smem_per_sm_bytes); },
     [](DeviceLimits* d, long long v) { d->smem_per_sm_bytes = std::size_t(v); }},
    {"smem-per-block", "shared memory per block without opt-in, bytes", true, 1,
     [](const DeviceLimits& d) -> long long { return static_cast<long long>(d.smem_per_block_bytes); },
     [](DeviceLimits* d, long long v) { d->smem_per_block_bytes = std::size_t(v); }},
    {"smem-per-block-optin", "shared memory per block with opt-in, bytes", true, 1,
     [](const DeviceLimits& d) -> long long { return static_cast<long long>(d.smem_per_block_optin_bytes); },
     [](DeviceLimits* d, long long v) { d->smem_per_block_optin_bytes = std::size_t(v); }},
    {"reserved-smem", "shared memory the driver reserves per block, bytes", true, 0,
     [](const DeviceLimits& d) -> long long { return static_cast<long long>(d.reserved_smem_per_block_bytes); },
     [](DeviceLimits* d, long long v) { d->reserved_smem_per_block_bytes = std::size_t(v); }},
    {"max-threads-per-block", "maximum threads per block", false, 1,
     [](const DeviceLimits& d) -> long long { return d.max_threads_per_block; },
     [](DeviceLimits* d, long long v) { d->max_threads_per_block = int(v); }},
};

constexpr const char* kBeyondEveryArch = "no built-in architecture has more";

po::options_description MakeOptions() {
  po::options_description options("Options");
  AddTargetOptions(options, "a GPU of this machine (default 0 when --arch is not given)");
  options.add_options()("list-archs", "print every name --arch takes and exit")(
      "threads", po::value<std::string>()->value_name("N"), "threads per block (1 to 1024)")(
      "regs", po::value<std::string>()->value_name("N")->default_value("0"),
      "registers per thread, 0 to 255 (from ptxas -v or the cubin)")(
      "smem", po::value<std::string>()->value_name("BYTES")->default_value("0"),
      "shared memory per block in bytes, static plus dynamic, before the driver's reserve")(
      "vary", po::value<std::string>()->value_name("AXIS"), "also print occupancy over threads, regs or smem")(
      "svg", po::value<std::string>()->value_name("FILE"),
      "with --vary: write that curve as an SVG chart to this file")(
      "kernel", po::value<std::string>()->value_name("KERNEL"),
      "a kernel template: threads, registers and shared memory from its cubin")(
      "param", po::value<std::vector<std::string>>()->value_name("NAME=VALUE")->composing(),
      "with --kernel: NAME=VALUE, a declared value or its label (others: first value)");
  AddSizeOption(options,
                "with --kernel: problem size, e.g. 4096x4096x4096; omitted sizes take the template's defaults");
  AddTemplatesOption(options);
  AddJsonOption(options);
  po::options_description device(
      "Device overrides (a custom device; each at most the largest figure of the built-in table)");
  for (const Override& o : kOverrides)
    device.add_options()(o.option, po::value<std::string>()->value_name("N"), o.help);
  options.add(device);
  return options;
}

// The overrides given, checked before the base device is known (a GPU may have to be read for it).
std::vector<std::pair<const Override*, long long>> ReadOverrides(const po::variables_map& vm) {
  const DeviceLimits largest = LargestLimits();
  std::vector<std::pair<const Override*, long long>> given;
  for (const Override& o : kOverrides)
    if (vm.count(o.option))
      given.emplace_back(&o, (o.bytes ? ParseBytes : ParseWholeNumber)(o.option, vm[o.option].as<std::string>(),
                                                                       o.min_value, o.get(largest), kBeyondEveryArch));
  return given;
}

DeviceLimits MakeDevice(const DeviceLimits& base, const std::vector<std::pair<const Override*, long long>>& overrides) {
  DeviceLimits device = base;
  for (const auto& [o, value] : overrides) o->set(&device, value);
  if (!overrides.empty()) device.name += " (custom)";
  if (device.max_blocks_per_sm > base.max_blocks_per_sm)
    std::cerr << "warning: cuda_occupancy.h allows at most " << base.max_blocks_per_sm
              << " blocks per SM on compute capability " << device.cc_major << "." << device.cc_minor
              << "; --max-blocks-per-sm above that has no effect\n";
  try {
    const std::size_t configured = ConfiguredSmemPerSmBytes(device);
    if (configured != device.smem_per_sm_bytes)
      std::cerr << "warning: cuda_occupancy.h configures " << configured << " bytes of shared memory per SM, the "
                << "next carveout size of this architecture above " << device.smem_per_sm_bytes << "\n";
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(overrides.empty() ? "" : "device overrides: ") + e.what());
  }
  return device;
}

KernelResources MakeKernel(const po::variables_map& vm) {
  if (!vm.count("threads")) throw UsageError("--threads: required (threads per block), or --kernel NAME");
  const DeviceLimits largest = LargestLimits();
  KernelResources kernel;
  kernel.threads_per_block = int(
      ParseWholeNumber("threads", vm["threads"].as<std::string>(), 1, largest.max_threads_per_block, kBeyondEveryArch));
  kernel.regs_per_thread = int(ParseWholeNumber("regs", vm["regs"].as<std::string>(), 0, kMaxRegsPerThread,
                                                "the most registers a thread can address"));
  kernel.smem_bytes = std::size_t(ParseBytes("smem", vm["smem"].as<std::string>(), 0,
                                             static_cast<long long>(largest.smem_per_sm_bytes), kBeyondEveryArch));
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
  const std::string size_text = SizeOption(vm);
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs(TemplateFolders(vm)));
  TemplateRequest request{library.Find(vm["kernel"].as<std::string>()), {}, {}};
  request.params = ParamsFromSettings(request.spec, Strings(vm, "param"));
  request.size = ParseProblemSize(request.spec, size_text);
  return request;
}

nlohmann::json TemplateJson(const TemplateResources& r, const std::string& name) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [param, value] : r.params) params[param] = value;
  return {{"name", name},
          {"params", params},
          {"arch", r.arch},
          {"block", r.geometry.block},
          {"regs_per_thread", r.info.regs_per_thread},
          {"static_smem_bytes", r.info.static_smem_bytes},
          {"dynamic_smem_bytes", r.geometry.shared_bytes},
          {"spill_bytes", r.info.spill_bytes},
          {"violated_constraints", r.violated_constraints}};
}

bool ParseVary(const po::variables_map& vm, VaryInput* input) {
  RequireWith(vm, "svg", "vary");
  if (vm.count("svg")) RequireOutputPath("svg", vm["svg"].as<std::string>());
  if (!vm.count("vary")) return false;
  const std::string text = vm["vary"].as<std::string>();
  if (!VaryInputFromString(text, input)) throw UsageError("--vary " + Quoted(text) + ": must be threads, regs or smem");
  return true;
}

constexpr const char* kOlderArchAdvice = "without --kernel, --threads, --regs and --smem work on every architecture";

// Compiles the template for the target's architecture; its resources replace `kernel`.
nlohmann::json ApplyTemplate(const TemplateRequest& request, const TargetDevice& target, KernelResources* kernel) {
  RequireNvrtcArch(target.limits, "--kernel", kOlderArchAdvice);
  const TemplateResources resources = ResourcesFromTemplate(request.spec, request.params, request.size, target.arch);
  for (const std::string& c : resources.violated_constraints)
    std::cerr << "warning: outside the search space of " << request.spec.name << ": " << c << "\n";
  *kernel = resources.kernel;
  return TemplateJson(resources, request.spec.name);
}

// --list-archs prints every name --arch takes; any other option given with it is a mistake.
int ListArchs(const po::variables_map& vm) {
  for (const auto& [name, value] : vm)
    if (name != "list-archs" && !value.defaulted())
      throw UsageError("--list-archs: takes no other option (--" + name + " given)");
  for (const std::string& arch : AcceptedArchs()) std::cout << arch << "\n";
  return kExitOk;
}

void WriteSvg(const po::variables_map& vm, const OccupancyReport& report) {
  const std::string path = vm["svg"].as<std::string>();
  try {
    WriteSvgFile(CurveChart(report.device, report.kernel, *report.vary, report.curve), path);
  } catch (const std::runtime_error& e) {
    throw UsageError("--svg " + Quoted(path) + ": " + e.what());
  }
}

}  // namespace

int RunOccupancy(int argc, char** argv) {
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, kSpec, MakeOptions(), {}, &vm)) return kExitOk;
  if (vm.count("list-archs")) return ListArchs(vm);
  for (const char* option : {"param", "size", "templates"}) RequireWith(vm, option, "kernel");
  VaryInput input = VaryInput::kThreads;
  const bool vary = ParseVary(vm, &input);
  const auto overrides = ReadOverrides(vm);
  const TargetChoice choice = ReadTargetChoice(vm, "");
  std::optional<TemplateRequest> request;
  KernelResources kernel;
  if (vm.count("kernel")) {
    if (choice.arch) RequireNvrtcArch(choice.arch->limits, "--kernel", kOlderArchAdvice);
    request = MakeTemplateRequest(vm);
  } else {
    kernel = MakeKernel(vm);
  }
  TargetDevice target = ResolveTarget(choice);  // the GPU, if any, is read only now
  target.limits = MakeDevice(target.limits, overrides);
  const nlohmann::json source = request ? ApplyTemplate(*request, target, &kernel) : nlohmann::json();
  const DeviceLimits& device = target.limits;
  OccupancyReport report{device, kernel, ComputeOccupancy(device, kernel), SuggestImprovements(device, kernel), {},
                         {},     source};
  if (vary) {
    report.vary = input;
    report.curve = OccupancyCurve(device, kernel, input);
  }
  if (vm.count("svg")) WriteSvg(vm, report);
  if (JsonOutput(vm))
    std::cout << OccupancyJson(report).dump(2) << "\n";
  else
    PrintOccupancy(report, std::cout);
  return kExitOk;
}

}  // namespace tuner
