// `tuner tune KERNEL`: sweep every candidate of a template on one GPU and store the results.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/cli.h"
#include "app/commands.h"
#include "app/tune_options.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/progress_bar.h"
#include "cuda/device.h"
#include "db/query/store.h"
#include "sweep/current_toolchain.h"
#include "sweep/multi_gpu_sweep.h"
#include "sweep/revalidate.h"
#include "sweep/sweep.h"
#include "sweep/sweep_summary.h"
#include "sweep/sweep_target.h"
#include "template/search_space.h"
#include "template/template_library.h"
#include "template/timing_choice.h"

namespace tuner {

namespace {

// Where a command's sweeps run: its options, the store and the one progress bar of all its sweeps.
struct Tuning {
  const TuneOptions& options;
  db::Store& store;
  ProgressBar& bar;
};

// Spaces of at most this many combinations are walked before the GPU is looked for, so that a bad
// space is refused (exit 2) before a missing GPU (exit 3); a walk this long takes well under a second.
constexpr std::size_t kQuickWalk = 10000000;

// Every size checked (lengths, tolerances, data files, constraints) and its candidates enumerated,
// before any database is touched (and, for a space of at most kQuickWalk combinations, any GPU).
std::vector<SweepTarget> TargetsToTune(const TemplateSpec& templ, const TuneOptions& options) {
  std::vector<SweepTarget> targets;
  for (const ProblemSize& size : SizesToTune(templ, options)) targets.push_back(TargetAtSize(templ, size));
  return targets;
}

// --gpu N, or --gpus for several. Throws NoGpuError without a GPU, UsageError for an index this
// machine lacks.
std::vector<GpuInfo> FindGpus(const TuneOptions& options) {
  if (options.gpus) return RequireGpus(*options.gpus);
  return {RequireGpu(options.gpu)};
}

// Interrupted: says how to resume. Otherwise whether every sweep (or size, or model) has a best.
int ExitCode(const std::vector<SweepOutcome>& outcomes, bool all_have_best) {
  std::size_t stored = 0;
  bool interrupted = false;
  for (const SweepOutcome& out : outcomes) {
    stored += out.measured.size();
    interrupted |= out.interrupted;
  }
  if (!interrupted) return all_have_best ? kExitOk : kExitFailed;
  std::cerr << "tuner tune: interrupted; " << stored << " candidate(s) stored. Run the same command to resume.\n";
  return kExitInterrupted;
}

// --sizes: one size after the other on one GPU, until one is interrupted.
int TuneSizes(const TemplateSpec& templ, const std::vector<SweepTarget>& targets, const GpuInfo& gpu, Tuning run) {
  std::vector<SweepOutcome> outcomes;
  for (const SweepTarget& target : targets) {
    outcomes.push_back(RunSweep(target, gpu, run.options.sweep, run.store));
    if (outcomes.back().interrupted) break;
  }
  run.bar.Finish();
  return ExitCode(outcomes, ReportSizes(templ, outcomes, run.options.json, run.options.sweep.objective, std::cout));
}

// --gpus: one sweep per GPU at once.
int TuneOnGpus(const SweepTarget& target, const std::vector<GpuInfo>& gpus, Tuning run) {
  const std::vector<SweepOutcome> outcomes = RunSweeps(target, ShareByModel(run.options.sweep, gpus), run.store);
  run.bar.Finish();
  return ExitCode(outcomes,
                  ReportSweeps(target.spec, outcomes, run.options.json, run.options.sweep.objective, std::cout));
}

int TuneOne(const SweepTarget& target, const GpuInfo& gpu, Tuning run) {
  const SweepOutcome outcome = RunSweep(target, gpu, run.options.sweep, run.store);
  run.bar.Finish();
  return ExitCode({outcome},
                  ReportSweep(target.spec, outcome, run.options.json, run.options.sweep.objective, std::cout));
}

// --revalidate: the stored leaders of every size on this GPU measured again, judged and re-tuned.
int RevalidateOne(const TemplateSpec& templ, const GpuInfo& gpu, Tuning run) {
  SweepOptions options = run.options.sweep;
  options.progress = nullptr;  // one bar per sweep would restart at every size
  SweepRemeasurer remeasurer(gpu, options, run.store);
  // Each stored result in its own timing mode; with --timing, only the results of that mode.
  const std::vector<SizeRevalidation> sizes = Revalidate(templ, gpu.uuid, run.store, remeasurer, run.options.timing);
  run.bar.Finish();
  const std::string toolchain = db::ToText(CurrentToolchain());
  if (run.options.json) {
    nlohmann::ordered_json doc = {{"kernel", templ.name}, {"gpu", gpu.name}, {"toolchain", toolchain}};
    doc.update(RevalidationJson(sizes));
    std::cout << doc.dump(2) << "\n";
  } else {
    std::cout << "revalidated " << templ.name << " on " << gpu.name << " (" << toolchain << ")\n";
    PrintRevalidation(sizes, std::cout);
  }
  const bool all_have_best =
      std::all_of(sizes.begin(), sizes.end(), [](const SizeRevalidation& s) { return !s.best_after.empty(); });
  return all_have_best ? kExitOk : kExitFailed;
}

}  // namespace

int RunTune(int argc, char** argv) {
  const CommandSpec spec{
      "tune",
      "tuner tune KERNEL [--size WxH | --sizes LIST] [--gpu N] [options] | tuner tune KERNEL --revalidate [--gpu N]",
      "Compile every candidate of a kernel template with NVRTC, check it against the reference, time it on\n"
      "the GPU and store every result. Running it again measures only what is missing. Ctrl-C stops\n"
      "with a summary (exit 130); a second Ctrl-C stops at once.",
      "tuner tune transpose --size 8192x8192"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddTuneOptions(options, positional);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  TuneOptions tune = ReadTuneOptions(vm, argc, argv);
  if (!tune.sweep.strategy_reason.empty()) std::cerr << "tuner tune: " << tune.sweep.strategy_reason << "\n";
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs(tune.template_folders));
  const TemplateSpec& templ = library.Find(tune.kernel);
  tune.sweep.timing = ChooseTimingMode(templ, tune.timing).mode;  // a mode the template cannot have: UsageError
  if (tune.sweep.batch_launches > 0 && tune.sweep.timing == TimingMode::kIsolated)
    throw UsageError("--launches-per-sample applies to the back_to_back and graph timing modes; " + tune.kernel +
                     " is timed isolated here (add --timing graph or --timing back_to_back)");
  // A space too large to walk in a moment is walked once the GPU is found: without one, say so at once.
  const bool long_walk = CountCombinations(templ) > kQuickWalk;
  std::vector<GpuInfo> gpus = long_walk ? FindGpus(tune) : std::vector<GpuInfo>{};
  const std::vector<SweepTarget> targets = tune.revalidate ? std::vector<SweepTarget>{} : TargetsToTune(templ, tune);
  if (templ.check.own_configuration) std::cerr << "tuner tune: " << OwnConfigurationWarning(templ) << "\n";
  RequireNoFolder("db", tune.db_path);  // bad databases (a folder, a foreign or read-only file) before the GPU
  db::Store::CheckWritable(tune.db_path);
  if (tune.revalidate && !std::filesystem::exists(tune.db_path))  // nothing to revalidate: create nothing
    throw std::runtime_error("no database at '" + tune.db_path +
                             "': nothing to revalidate; pass --db PATH or set TUNER_DB");
  if (!long_walk) gpus = FindGpus(tune);                                // no GPU: exit 3 before the database is touched
  ProgressBar bar(ProgressStyleFor(StderrIsTerminal()), "tuner tune");  // one for all GPUs' sweeps, on stderr
  tune.sweep.progress = &bar;
  db::Store store = db::Store::Open(tune.db_path, db::OpenMode::kReadWrite);
  StopOnInterrupt(&g_sweep_interrupted);
  const Tuning run{tune, store, bar};
  if (tune.revalidate) return RevalidateOne(templ, gpus.front(), run);
  if (tune.sizes) return TuneSizes(templ, targets, gpus.front(), run);
  if (tune.gpus) return TuneOnGpus(targets.front(), gpus, run);
  return TuneOne(targets.front(), gpus.front(), run);
}

}  // namespace tuner
