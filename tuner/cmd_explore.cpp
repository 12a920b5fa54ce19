// `tuner explore KERNEL --arch sm_90`: every candidate compiled offline, with its resources and
// occupancy, or its compile error.
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli.h"
#include "commands.h"
#include "device_limits.h"
#include "errors.h"
#include "explore.h"
#include "template_library.h"
#include "template_resources.h"
#include "text_table.h"

namespace tuner {

namespace {

std::string ParamsText(const ParamValues& params) {
  std::string text;
  for (const auto& [name, value] : params) text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return text;
}

std::string Note(const ExploredCandidate& c) {
  if (!c.compiled) return "compile error: " + c.compile_log.substr(0, c.compile_log.find('\n'));
  if (!c.invalid_reason.empty()) return "invalid: " + c.invalid_reason;
  return c.info.spill_bytes ? std::to_string(c.info.spill_bytes) + " B spilled" : "";
}

nlohmann::json CandidateJson(const ExploredCandidate& c) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : c.params) params[name] = value;
  nlohmann::json doc = {{"params", params}, {"block", c.geometry.block}, {"grid", c.geometry.grid},
                        {"compiled", c.compiled}, {"invalid_reason", c.invalid_reason}};
  if (!c.compiled) {
    doc["compile_error"] = c.compile_log;
    return doc;
  }
  doc.update({{"regs_per_thread", c.info.regs_per_thread}, {"static_smem_bytes", c.info.static_smem_bytes},
              {"dynamic_smem_bytes", c.geometry.shared_bytes}, {"spill_bytes", c.info.spill_bytes},
              {"blocks_per_sm", c.occupancy.blocks_per_sm}, {"warps_per_sm", c.occupancy.warps_per_sm},
              {"occupancy", c.occupancy.occupancy}, {"limiter", ToString(c.occupancy.limiter)}});
  return doc;
}

void PrintTable(const std::vector<ExploredCandidate>& explored) {
  TextTable table({"PARAMS", "THREADS", "REGS", "SMEM B", "SPILL B", "BLOCKS/SM", "OCC", "LIMITER", "NOTE"});
  for (const ExploredCandidate& c : explored) {
    const bool ok = c.compiled;
    table.Add({ParamsText(c.params), std::to_string(c.geometry.ThreadsPerBlock()),
               ok ? std::to_string(c.info.regs_per_thread) : "-",
               ok ? std::to_string(c.info.static_smem_bytes + c.geometry.shared_bytes) : "-",
               ok ? std::to_string(c.info.spill_bytes) : "-", ok ? std::to_string(c.occupancy.blocks_per_sm) : "-",
               ok ? Fixed(100 * c.occupancy.occupancy, 0) + "%" : "-", ok ? ToString(c.occupancy.limiter) : "-", Note(c)});
  }
  table.Print(std::cout);
}

}  // namespace

int RunExplore(int argc, char** argv) {
  const CommandSpec spec{"explore", "tuner explore KERNEL [--arch sm_90 | --gpu N] [--size ...] [--json]",
                         "Compile every candidate of a kernel template with NVRTC, with no GPU needed, and list its registers,\n"
                         "shared memory, spills, blocks per SM, occupancy and limiter, or its compile error.",
                         "tuner explore matmul --arch sm_90"};
  po::options_description options("Options");
  options.add_options()("kernel", po::value<std::string>()->required(), "the template (see 'tuner kernels')")(
      "arch", po::value<std::string>()->default_value("sm_90"), "architecture from the built-in table")(
      "gpu", po::value<int>(), "take the architecture and limits from this GPU instead")(
      "size", po::value<std::string>()->default_value(""), "problem size, e.g. 8192x8192")(
      "json", "print one JSON document");
  AddTemplatesOption(options);
  po::positional_options_description positional;
  positional.add("kernel", 1);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  const auto dirs = TemplateSearchDirs(TemplateFolders(vm));
  const TemplateLibrary library = LoadTemplateLibrary(dirs);
  const TemplateSpec& templ = library.Find(vm["kernel"].as<std::string>());
  const ProblemSize size = ParseProblemSize(templ, vm["size"].as<std::string>());
  const DeviceLimits device = vm.count("gpu") ? LimitsFromGpu(vm["gpu"].as<int>()) : ArchLimits(vm["arch"].as<std::string>());
  const std::string arch = ArchOf(device);

  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<ExploredCandidate> explored = ExploreTemplate(templ, size, device, arch, DefaultCubinCacheDir(), threads);
  std::size_t errors = 0;
  for (const ExploredCandidate& c : explored) errors += !c.compiled;
  if (vm.count("json")) {
    nlohmann::json doc = {{"kernel", templ.name}, {"arch", arch}, {"size", size.Key()}, {"device", device.name},
                          {"compile_errors", errors}, {"candidates", nlohmann::json::array()}};
    for (const ExploredCandidate& c : explored) doc["candidates"].push_back(CandidateJson(c));
    std::cout << doc.dump(2) << "\n";
  } else {
    std::cout << templ.name << " " << size.Key() << " for " << arch << " (" << device.name << "): " << explored.size()
              << " candidates, " << errors << " compile error(s)\n\n";
    PrintTable(explored);
  }
  return kExitOk;
}

}  // namespace tuner
