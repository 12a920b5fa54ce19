// `tuner explore KERNEL --arch sm_90`: every candidate compiled offline, with its resources and
// occupancy, or its compile error; `--shard K/N` compiles one task's share into the cubin cache that
// a later `tune` on the GPU node reads (docs/hpc.md).
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/target_device.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "common/progress_bar.h"
#include "common/text_table.h"
#include "common/usable_cpus.h"
#include "explore/explore.h"
#include "explore/template_resources.h"
#include "sweep/shard.h"
#include "template/search_space.h"
#include "template/template_library.h"

namespace tuner {

namespace {

std::string Note(const ExploredCandidate& c) {
  if (c.CompileFailed()) return "compile error: " + c.compile_log.substr(0, c.compile_log.find('\n'));
  if (!c.invalid_reason.empty()) return "invalid: " + c.invalid_reason;
  return c.info.spill_bytes ? std::to_string(c.info.spill_bytes) + " B spilled" : "";
}

nlohmann::json CandidateJson(const ExploredCandidate& c) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : c.params) params[name] = value;
  nlohmann::json doc = {{"params", params},
                        {"block", c.geometry.block},
                        {"grid", c.geometry.grid},
                        {"compiled", c.compiled},
                        {"invalid_reason", c.invalid_reason}};
  if (c.CompileFailed()) doc["compile_error"] = c.compile_log;
  if (!c.compiled) return doc;
  doc.update({{"regs_per_thread", c.info.regs_per_thread},
              {"static_smem_bytes", c.info.static_smem_bytes},
              {"dynamic_smem_bytes", c.geometry.shared_bytes},
              {"spill_bytes", c.info.spill_bytes},
              {"blocks_per_sm", c.occupancy.blocks_per_sm},
              {"warps_per_sm", c.occupancy.warps_per_sm},
              {"occupancy", c.occupancy.occupancy},
              {"limiter", ToString(c.occupancy.limiter)}});
  return doc;
}

void PrintTable(const std::vector<ExploredCandidate>& explored) {
  TextTable table({"PARAMS", "THREADS", "REGS", "SMEM B", "SPILL B", "BLOCKS/SM", "OCC", "LIMITER", "NOTE"});
  for (const ExploredCandidate& c : explored) {
    const bool ok = c.compiled;
    table.Add({DescribeParams(c.params), std::to_string(c.geometry.ThreadsPerBlock()),
               ok ? std::to_string(c.info.regs_per_thread) : "-",
               ok ? std::to_string(c.info.static_smem_bytes + c.geometry.shared_bytes) : "-",
               ok ? std::to_string(c.info.spill_bytes) : "-", ok ? std::to_string(c.occupancy.blocks_per_sm) : "-",
               ok ? Fixed(100 * c.occupancy.occupancy, 0) + "%" : "-", ok ? ToString(c.occupancy.limiter) : "-",
               Note(c)});
  }
  table.Print(std::cout);
}

void PrintJson(const TemplateSpec& templ, const ProblemSize& size, const TargetDevice& target, const Exploration& e) {
  nlohmann::json doc = {{"kernel", templ.name},
                        {"arch", target.arch},
                        {"size", size.Key()},
                        {"device", target.limits.name},
                        {"candidates_total", e.candidates},
                        {"explored", e.explored.size()},
                        {"interrupted", e.interrupted},
                        {"invalid", e.Invalid()},
                        {"compile_errors", e.CompileErrors()},
                        {"candidates", nlohmann::json::array()}};
  for (const ExploredCandidate& c : e.explored) doc["candidates"].push_back(CandidateJson(c));
  std::cout << doc.dump(2) << "\n";
}

void PrintText(const TemplateSpec& templ, const ProblemSize& size, const TargetDevice& target, const Exploration& e) {
  std::cout << templ.name << " " << size.Key() << " for " << target.arch << " (" << target.limits.name << "): ";
  if (e.interrupted) std::cout << e.explored.size() << " of ";
  std::cout << e.candidates << " candidates" << (e.interrupted ? " (interrupted)" : "") << ", " << e.Invalid()
            << " cannot launch (invalid), " << e.CompileErrors() << " compile error(s)\n\n";
  PrintTable(e.explored);
}

}  // namespace

int RunExplore(int argc, char** argv) {
  const CommandSpec spec{
      "explore", "tuner explore KERNEL [--arch sm_90 | --gpu N] [--size ...] [--shard K/N] [--json]",
      "Compile every candidate of a kernel template with NVRTC, with no GPU needed, and list its registers,\n"
      "shared memory, spills, blocks per SM, occupancy and limiter, or why it cannot launch or compile.\n"
      "The cubins, and the reference kernel's, go to the cache 'tune' reads ($XDG_CACHE_HOME/tuner/cubins).\n"
      "Ctrl-C stops it with what was compiled so far (exit 130).",
      "tuner explore matmul --arch sm_90"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddKernelArgument(options, positional);
  AddTargetOptions(options, "take the architecture and limits from this GPU instead (default: --arch sm_90)");
  AddSizeOption(options, "problem size, e.g. 8192x8192; omitted sizes take the template's defaults");
  options.add_options()("shard", po::value<std::string>()->value_name("K/N"),
                        "K/N: compile only share K of N of the candidates, as 'tune --shard K/N' shares them "
                        "(a job array's task on a node without a GPU)");
  AddJsonOption(options);
  AddTemplatesOption(options);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  const std::optional<Shard> shard =
      vm.count("shard") ? std::optional<Shard>(ParseShard(vm["shard"].as<std::string>())) : std::nullopt;
  const TargetChoice choice = ReadTargetChoice(vm, "sm_90");
  if (choice.arch) RequireNvrtcArch(choice.arch->limits, "--arch " + Quoted(choice.arch->name));
  const std::string size_text = SizeOption(vm);
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs(TemplateFolders(vm)));
  const TemplateSpec& templ = library.Find(KernelArgument(vm));
  const ProblemSize size = ParseProblemSize(templ, size_text);
  const TargetDevice target = ResolveTarget(choice);
  RequireNvrtcArch(target.limits, "--gpu " + std::to_string(choice.gpu));

  static std::atomic<bool> interrupted{false};
  StopOnInterrupt(&interrupted);
  const int threads = UsableCpus();
  ProgressBar progress(ProgressStyleFor(StderrIsTerminal()), "tuner explore", false);
  std::vector<ParamValues> candidates = EnumerateCandidates(templ, size);
  if (shard) candidates = ShareOf(std::move(candidates), *shard);
  const Exploration exploration = ExploreCandidates(templ, candidates, size, target.limits, target.arch,
                                                    DefaultCubinCacheDir(), threads, "", &interrupted, &progress);
  progress.Finish();
  if (!exploration.interrupted && (!shard || shard->number == 1))  // what tune compiles besides them
    CompileReference(templ, size, target.arch, DefaultCubinCacheDir());
  if (JsonOutput(vm))
    PrintJson(templ, size, target, exploration);
  else
    PrintText(templ, size, target, exploration);
  if (!exploration.interrupted) return kExitOk;
  std::cerr << "tuner explore: interrupted; " << exploration.explored.size() << " of " << exploration.candidates
            << " candidates explored. Their cubins are cached: running it again compiles only the rest.\n";
  return kExitInterrupted;
}

}  // namespace tuner
