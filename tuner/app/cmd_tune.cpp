// `tuner tune KERNEL`: sweep every candidate of a template on one GPU and store the results.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "common/text_table.h"
#include "db/counters.h"
#include "db/objective.h"
#include "db/query/store.h"
#include "db/row_json.h"
#include "db/speed_of_light.h"
#include "reports/report_format.h"
#include "sweep/leader_summary.h"
#include "sweep/multi_gpu_sweep.h"
#include "sweep/shard.h"
#include "sweep/sweep.h"
#include "template/data_files.h"
#include "template/search_space.h"
#include "template/template_library.h"
#include "template/template_values.h"

namespace tuner {

namespace {

using report::ParamsText;

// A candidate's keys in `tune --json` (a contract scripts read).
const std::vector<db::JsonKey>& TuneJsonKeys() {
  using R = db::MeasurementRecord;
  static const std::vector<db::JsonKey> keys = {
      {&R::params_json, "/params"},      {&R::launch_json, "/launch"},      {&R::status, "/status"},
      {&R::reason, "/reason"},           {&R::time_ms_median, "/time_ms"},  {&R::time_ms_min, "/time_ms_min"},
      {&R::time_ms_max, "/time_ms_max"}, {&R::time_ms_spread, "/spread"},   {&R::samples, "/samples"},
      {&R::perf_value, "/perf"},         {&R::perf_unit, "/perf_unit"},     {&R::regs_per_thread, "/regs_per_thread"},
      {&R::smem_bytes, "/smem_bytes"},   {&R::spill_bytes, "/spill_bytes"}, {&R::blocks_per_sm, "/blocks_per_sm"},
      {&R::occupancy, "/occupancy"},     {&R::limiter, "/limiter"},         {&R::worker_kills, "/worker_kills"}};
  return keys;
}

nlohmann::json RecordJson(const db::MeasurementRecord& r) { return db::RecordJson(r, TuneJsonKeys()); }

nlohmann::json RecordWithHardwareJson(const db::MeasurementRecord& r) {
  nlohmann::json json = RecordJson(r);
  json.update(db::HardwareJson(r));
  return json;
}

// The best by the objective; the fastest when no candidate has what it needs (no energy measured).
std::optional<db::MeasurementRecord> Best(const std::vector<db::MeasurementRecord>& records, db::Objective objective) {
  const auto best = db::BestBy(records, objective);
  return best ? best : db::BestBy(records, db::Objective::kTime);
}

// The ok candidates fastest first (db/query/best.h), then the others in the store's order.
std::vector<db::MeasurementRecord> SortedByTime(std::vector<db::MeasurementRecord> records) {
  std::stable_sort(records.begin(), records.end(), db::FasterRecord);
  return records;
}

void PrintTable(const std::vector<db::MeasurementRecord>& records) {
  TextTable table({"PARAMS", "STATUS", "TIME ms", "PERF", "REGS", "SMEM", "OCC", "LIMITER", "NOTE"});
  for (const auto& r : SortedByTime(records)) {
    const bool ok = IsOk(r.status);
    table.Add({ParamsText(r.params_json), ToText(r.status), ok ? Fixed(r.time_ms_median, 4) : "",
               ok ? Fixed(r.perf_value, 1) + " " + r.perf_unit : "", std::to_string(r.regs_per_thread),
               std::to_string(r.smem_bytes), Fixed(r.occupancy * 100, 0) + "%", r.limiter, r.reason.substr(0, 70)});
  }
  table.Print(std::cout);
}

// The bound a pipeline's overlap approaches: its slowest stage alone.
double StageBoundMs(const StageTimes& stages) { return std::max({stages.h2d_ms, stages.kernel_ms, stages.d2h_ms}); }

void PrintPipelineStages(const std::optional<PipelineStages>& winner) {
  if (!winner) return;
  const StageTimes& t = winner->stages;
  std::cout << "stages of this run's winner alone (" << winner->pipeline << ", whole problem, one stream): H2D "
            << Fixed(t.h2d_ms, 3) << " ms, kernel " << Fixed(t.kernel_ms, 3) << " ms, D2H " << Fixed(t.d2h_ms, 3)
            << " ms; the pipeline took " << Fixed(winner->time_ms, 3)
            << " ms = " << Fixed(winner->time_ms / StageBoundMs(t), 2) << "x its slowest stage\n";
}

// As tune --json shows them.
nlohmann::json StagesJson(const PipelineStages& winner) {
  const StageTimes& t = winner.stages;
  return {{"h2d_ms", t.h2d_ms},
          {"kernel_ms", t.kernel_ms},
          {"d2h_ms", t.d2h_ms},
          {"pipeline", winner.pipeline},
          {"params", nlohmann::json::parse(winner.params_json)},
          {"time_ms", winner.time_ms},
          {"bound_ms", StageBoundMs(t)}};
}

// What the counters and energy pass cost (null: no pass).
nlohmann::json HardwarePassJson(const std::optional<HardwarePassCost>& cost) {
  if (!cost) return nullptr;
  return {{"wall_ms", cost->wall_ms},
          {"requests", cost->requests},
          {"counters", cost->counters},
          {"energy", cost->energy},
          {"worker_ms", cost->worker_ms}};
}

// The best by the objective, against copy bandwidth where it is a bandwidth and its counters do not
// say it is compute-bound (a pipeline: against its stages), with its counters, speed of light and
// energy, and the leaders.
void PrintBest(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective) {
  const auto best = Best(out.stored, objective);
  if (!best) {
    std::cout << "\nNo candidate passed the check.\n";
    return;
  }
  std::cout << "\nbest" << (objective == db::Objective::kTime ? "" : std::string(" (") + db::ToString(objective) + ")")
            << ": " << ParamsText(best->params_json) << "  " << Fixed(best->time_ms_median, 4) << " ms  "
            << Fixed(best->perf_value, 1) << " " << best->perf_unit;
  if (best->perf_unit == "GB/s" && out.copy_gbps > 0 && !spec.pipeline.enabled &&
      db::CeilingApplies(best->perf_unit, best->counters_json))
    std::cout << " = " << Fixed(100 * best->perf_value / out.copy_gbps, 1) << "% of device-to-device copy ("
              << Fixed(out.copy_gbps, 0) << " GB/s, same run)";
  std::cout << "\n" << db::HardwareText(*best, "  ");
  PrintPipelineStages(out.pipeline_stages);
  std::cout << "\n";
  PrintLeaders(SummariseLeaders(out.stored), std::cout);
}

void PrintSummary(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective) {
  std::cout << spec.name << " " << out.size.Key() << " on GPU " << out.gpu.index << " (" << out.gpu.name << ", "
            << out.gpu.Arch() << "): " << out.candidates << " candidates"
            << (out.shard.empty() ? "" : " (" + std::to_string(out.shard_candidates) + " in shard " + out.shard + ")")
            << ", " << out.measured.size() << " measured now, " << out.already_stored << " already stored\n\n";
  PrintTable(out.stored);
  PrintBest(spec, out, objective);
  std::cout << "\n" << Describe(out.time) << "\n";
}

nlohmann::json OutcomeJson(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& r : SortedByTime(out.stored)) candidates.push_back(RecordWithHardwareJson(r));
  const auto best = Best(out.stored, objective);
  nlohmann::json doc = {
      {"kernel", spec.name},
      {"size", out.size.Key()},
      {"template_hash", spec.hash},
      {"gpu", {{"index", out.gpu.index}, {"name", out.gpu.name}, {"uuid", out.gpu.uuid}, {"arch", out.gpu.Arch()}}},
      {"copy_gbps", out.copy_gbps},
      {"candidates_total", out.candidates},
      {"measured_now", out.measured.size()},
      {"already_stored", out.already_stored},
      {"interrupted", out.interrupted},
      {"time", ToJson(out.time)},
      {"candidates", candidates},
      {"best", nullptr},
      {"objective", db::ToString(objective)},
      {"counters_unavailable",
       out.counters_unavailable.empty() ? nlohmann::json() : nlohmann::json(out.counters_unavailable)},
      {"energy_unavailable",
       out.energy_unavailable.empty() ? nlohmann::json() : nlohmann::json(out.energy_unavailable)},
      {"hardware_pass", HardwarePassJson(out.hardware_pass)}};
  if (!out.shard.empty()) doc.update({{"shard", out.shard}, {"shard_candidates", out.shard_candidates}});
  if (best) {
    doc["best"] = RecordWithHardwareJson(*best);
    if (best->perf_unit == "GB/s" && out.copy_gbps > 0)
      doc["best"]["fraction_of_copy"] = best->perf_value / out.copy_gbps;
  }
  if (out.pipeline_stages) doc["pipeline_stages"] = StagesJson(*out.pipeline_stages);
  doc.update(ToJson(SummariseLeaders(out.stored)));
  return doc;
}

int InterruptedSummary(std::size_t stored) {
  std::cerr << "tuner tune: interrupted; " << stored << " candidate(s) stored. Run the same command to resume.\n";
  return kExitInterrupted;
}

// Several GPUs: each GPU's sweep, then the best of each model over its GPUs' shares.
int ReportSweeps(const TemplateSpec& spec, const std::vector<SweepOutcome>& outcomes, bool json,
                 db::Objective objective) {
  // By the model's name first, so that the models are listed in the order of their names.
  std::map<std::pair<std::string, db::GpuModel>, std::vector<db::MeasurementRecord>> per_model;
  std::map<std::string, int> models_named;
  bool interrupted = false;
  for (const SweepOutcome& out : outcomes) {
    const db::GpuModel model = ModelOf(out.gpu);
    if (!per_model.count({model.Text(), model})) ++models_named[model.Text()];
    auto& records = per_model[{model.Text(), model}];
    records.insert(records.end(), out.stored.begin(), out.stored.end());
    interrupted |= out.interrupted;
  }
  nlohmann::json doc = {{"sweeps", nlohmann::json::array()}, {"best_per_model", nlohmann::json::object()}};
  for (const SweepOutcome& out : outcomes) {
    if (json) {
      doc["sweeps"].push_back(OutcomeJson(spec, out, objective));
    } else {
      PrintSummary(spec, out, objective);
      std::cout << "\n";
    }
  }
  bool all_have_best = true;
  for (const auto& [named, records] : per_model) {
    // Two models whose memory differs by less than a GiB: the bytes tell them apart.
    const std::string model =
        named.first +
        (models_named[named.first] > 1 ? " (" + std::to_string(named.second.memory_bytes) + " bytes)" : "");
    const auto best = Best(records, objective);
    all_have_best &= best.has_value();
    if (json)
      doc["best_per_model"][model] = best ? RecordWithHardwareJson(*best) : nlohmann::json();
    else if (best)
      std::cout << "best on " << model << ": " << ParamsText(best->params_json) << "  "
                << Fixed(best->time_ms_median, 4) << " ms  " << Fixed(best->perf_value, 1) << " " << best->perf_unit
                << "\n";
  }
  if (json) std::cout << doc.dump(2) << "\n";
  if (interrupted) {
    std::size_t stored = 0;
    for (const SweepOutcome& out : outcomes) stored += out.measured.size();
    return InterruptedSummary(stored);
  }
  return all_have_best ? kExitOk : kExitFailed;
}

// Candidates compiled by this run, and those taken from the compile cache (a size after the first).
std::pair<std::size_t, std::size_t> CompiledAndCached(const SweepOutcome& out) {
  std::size_t compiled = 0, cached = 0;
  for (const db::MeasurementRecord& r : out.measured) {
    if (r.status == CandidateStatus::kInvalid) continue;
    ++(r.compile_ms > 0 ? compiled : cached);
  }
  return {compiled, cached};
}

const char* const kSharedCandidates =
    "sizes are not compiled into a candidate (only parameters are macros; sizes reach the kernel as arguments "
    "and launch geometry), so each candidate is compiled once and every further size loads it from the compile cache";

// --sizes: every size's sweep, then one line per size.
int ReportSizes(const TemplateSpec& spec, const std::vector<SweepOutcome>& outcomes, bool json,
                db::Objective objective) {
  bool all_have_best = true, interrupted = false;
  std::size_t stored = 0;
  nlohmann::json doc = {
      {"kernel", spec.name}, {"sizes", nlohmann::json::array()}, {"compiled_candidates", kSharedCandidates}};
  TextTable table({"SIZE", "BEST", "TIME ms", "PERF", "MEASURED NOW", "COMPILED", "FROM CACHE"});
  for (const SweepOutcome& out : outcomes) {
    const auto best = Best(out.stored, objective);
    const auto [compiled, cached] = CompiledAndCached(out);
    all_have_best &= best.has_value();
    interrupted |= out.interrupted;
    stored += out.measured.size();
    if (json) {
      doc["sizes"].push_back(OutcomeJson(spec, out, objective));
      doc["sizes"].back().update({{"compiled_now", compiled}, {"from_compile_cache", cached}});
      continue;
    }
    PrintSummary(spec, out, objective);
    std::cout << "\n";
    table.Add({out.size.Key(), best ? ParamsText(best->params_json) : "none passed",
               best ? Fixed(best->time_ms_median, 4) : "",
               best ? Fixed(best->perf_value, 1) + " " + best->perf_unit : "", std::to_string(out.measured.size()),
               std::to_string(compiled), std::to_string(cached)});
  }
  if (json) {
    std::cout << doc.dump(2) << "\n";
  } else {
    std::cout << spec.name << " at " << outcomes.size() << " sizes:\n";
    table.Print(std::cout);
    std::cout << "\nCompiled candidates: " << kSharedCandidates
              << ".\nEach size's loss with the other sizes' winners, and the "
              << "smallest set of configurations within 5% at every size (the dispatch table): tuner report "
              << spec.name << "\n";
  }
  if (interrupted) return InterruptedSummary(stored);
  return all_have_best ? kExitOk : kExitFailed;
}

// The sizes to tune, each with its data files: --sizes, else --size (or the defaults). Every one is
// checked (lengths, tolerances, data files, constraints) before any GPU or database is touched.
std::vector<std::pair<ProblemSize, TemplateSpec>> SizesToTune(const TemplateSpec& templ, const po::variables_map& vm,
                                                              const SweepOptions& sweep) {
  std::vector<ProblemSize> sizes;
  if (!vm.count("sizes"))
    sizes = {ParseProblemSize(templ, sweep.size_text)};
  else if (vm["sizes"].as<std::string>() == kCapturedSizes)
    sizes = SizesWithData(templ);
  else
    sizes = ParseProblemSizes(templ, vm["sizes"].as<std::string>());
  std::vector<std::pair<ProblemSize, TemplateSpec>> specs;
  for (const ProblemSize& size : sizes) {
    TemplateSpec spec = SpecAtSize(templ, size);
    CheckValuesAtSize(spec, size);
    CheckDataFiles(spec, size);
    EnumerateCandidates(spec, size);  // a constraint that cannot be evaluated (division by zero)
    specs.emplace_back(size, std::move(spec));
  }
  return specs;
}

std::string JoinArgs(int argc, char** argv) {
  std::string line = "tuner";
  for (int i = 0; i < argc; ++i) line += std::string(" ") + argv[i];
  return line;
}

// --gpu N, or --gpus for several (brute force and random sweeps only, which can share candidates).
std::vector<GpuInfo> SelectedGpus(const po::variables_map& vm, const SweepOptions& sweep) {
  if (!vm.count("gpus")) return {RequireGpu(sweep.gpu)};
  return SelectGpus(vm["gpus"].as<std::string>());
}

// Limits that keep a deadline a representable time: longer than any kernel should ever run.
constexpr double kMaxTimeoutFloorS = 86400;

// Every option checked and read before any file, GPU or database is touched.
SweepOptions SweepOptionsFrom(const po::variables_map& vm, int argc, char** argv) {
  SweepOptions sweep;
  RefuseTogether(vm, "gpu", "gpus");
  RefuseTogether(vm, "size", "sizes");
  if (vm.count("sizes")) {
    CheckSizeList(vm["sizes"].as<std::string>());
    if (vm.count("gpus"))
      throw UsageError(
          "--sizes and --gpus: tune several sizes on one GPU (--gpu N), or one size at a time on several GPUs");
  }
  sweep.gpu = GpuOption(vm).value_or(0);
  sweep.size_text = SizeOption(vm);
  sweep.force = vm.count("force") > 0;
  sweep.timeout_floor_s = ParseSeconds("timeout-floor", vm["timeout-floor"].as<std::string>(), 0.001, kMaxTimeoutFloorS,
                                       "a candidate's deadline; a day at most");
  sweep.tighten_deadlines = vm["timeout-floor"].defaulted();  // a floor the user sets is kept
  sweep.command_line = JoinArgs(argc, argv);
  sweep.strategy.name = vm["strategy"].as<std::string>();
  RequireStrategyName(sweep.strategy.name);
  sweep.strategy.max_evaluations = BudgetOption(vm);
  sweep.strategy.seed = SeedOption(vm);
  sweep.budget_seconds =
      ParseSeconds("budget-seconds", vm["budget-seconds"].as<std::string>(), 0, HUGE_VAL, "0: no limit");
  if (vm.count("gpus") && sweep.strategy.name != "brute_force" && sweep.strategy.name != "random")
    throw UsageError("--gpus shares the candidates of brute_force and random sweeps; tune with --strategy " +
                     sweep.strategy.name + " one GPU at a time (--gpu N)");
  if (vm.count("gpus")) ParseGpuList(vm["gpus"].as<std::string>());
  if (vm.count("shard")) {
    sweep.node_shard = ParseShard(vm["shard"].as<std::string>());
    if (sweep.strategy.name != "brute_force" && sweep.strategy.name != "random")
      throw UsageError("--shard shares the candidates of brute_force and random sweeps; --strategy " +
                       sweep.strategy.name +
                       " chooses each candidate from the results before it, so it runs on one node");
  }
  sweep.counters = ParseCounterMode(vm["counters"].as<std::string>());
  sweep.objective = ObjectiveOption(vm);
  return sweep;
}

}  // namespace

int RunTune(int argc, char** argv) {
  const CommandSpec spec{
      "tune", "tuner tune KERNEL [--size WxH | --sizes LIST] [--gpu N] [options]",
      "Compile every candidate of a kernel template with NVRTC, check it against the reference, time it on\n"
      "the GPU and store every result. Running it again measures only what is missing. Ctrl-C stops\n"
      "with a summary (exit 130); a second Ctrl-C stops at once.",
      "tuner tune transpose --size 8192x8192"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddKernelArgument(options, positional, "the template to tune (see 'tuner kernels')");
  AddSizeOption(options, "problem size, e.g. 8192x8192 (the template's size variables in order); omitted sizes take the template's defaults");
  options.add_options()(
      "sizes", po::value<std::string>(),
      "several sizes in one run, e.g. 1024x256,4096x256, or 'captured' (every size the template has data for)");
  AddGpuOption(options, "GPU index (see 'tuner devices'; default 0)");
  options.add_options()("gpus", po::value<std::string>(),
                        "several GPUs at once: 'all' or 0,1 (one worker each; GPUs of one model share the candidates)")(
      "shard", po::value<std::string>(),
      "K/N: measure this node's share K of N (a job array over several nodes; then 'tuner db merge')")(
      "force", "measure candidates that are already stored again")(
      "strategy", po::value<std::string>()->default_value("brute_force"),
      "brute_force, random, annealing, genetic or bayesian");
  AddBudgetOption(options, "at most this many candidates evaluated (0: no limit)");
  options.add_options()("budget-seconds", po::value<std::string>()->default_value("0"),
                        "stop measuring after this many seconds (0: no limit)");
  AddSeedOption(options, "1", "seed of the random and optimising strategies (0 to 2^64-1)");
  options.add_options()("timeout-floor", po::value<std::string>()->default_value("10"),
                        "seconds a candidate may always take before it is killed (0.001 to 86400); unset, 10 "
                        "until a candidate answered, then shorter where kernels take milliseconds")(
      "counters", po::value<std::string>()->default_value("winner"),
      "hardware counters after timing: winner (the winner, the runners-up and the winner's one-parameter "
      "neighbours, 6 at most), explain (those and one candidate of each parameter value, the winner's neighbour "
      "where there is one), all, or off; energy for the winner unless off, for all under all");
  AddObjectiveOption(options, "energy objectives measure every correct candidate's energy");
  AddJsonOption(options);
  AddTemplatesOption(options);
  AddDatabaseOption(options);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  SweepOptions sweep = SweepOptionsFrom(vm, argc, argv);
  const auto dirs = TemplateSearchDirs(TemplateFolders(vm));
  const TemplateLibrary library = LoadTemplateLibrary(dirs);
  const TemplateSpec& templ = library.Find(KernelArgument(vm));
  // Bad sizes, and lengths, tolerances or data files that are wrong at them, are usage errors before any work.
  const auto sizes = SizesToTune(templ, vm, sweep);
  if (templ.check.own_configuration) std::cerr << "tuner tune: " << OwnConfigurationWarning(templ) << "\n";
  MakeStrategy({vm["strategy"].as<std::string>()}, {}, templ.params);  // unknown strategy: exit 2
  const bool several = vm.count("gpus") > 0;
  const std::string db_path = DatabasePath(vm);
  RequireNoFolder("db", db_path);  // bad databases (a folder, a foreign or read-only file) before the GPU
  db::Store::CheckWritable(db_path);
  const std::vector<GpuInfo> gpus = SelectedGpus(vm, sweep);  // no GPU: exit 3 before the database is touched
  ProgressBar bar(ProgressStyleFor(StderrIsTerminal()), "tuner tune");  // one for all GPUs' sweeps, on stderr
  sweep.progress = &bar;
  db::Store store = db::Store::Open(db_path, db::OpenMode::kReadWrite);
  StopOnInterrupt(&g_sweep_interrupted);
  if (vm.count("sizes")) {
    std::vector<SweepOutcome> outcomes;
    for (const auto& [size, spec] : sizes) {
      sweep.size_text = size.Key();
      outcomes.push_back(RunSweep(spec, sweep, store));
      if (outcomes.back().interrupted) break;
    }
    bar.Finish();
    return ReportSizes(templ, outcomes, JsonOutput(vm), sweep.objective);
  }
  const TemplateSpec& at_size = sizes.front().second;
  if (several) {
    const std::vector<SweepOutcome> outcomes = RunSweeps(at_size, ShareByModel(sweep, gpus), store);
    bar.Finish();
    return ReportSweeps(at_size, outcomes, JsonOutput(vm), sweep.objective);
  }
  const SweepOutcome outcome = RunSweep(at_size, sweep, store);
  bar.Finish();
  if (JsonOutput(vm))
    std::cout << OutcomeJson(at_size, outcome, sweep.objective).dump(2) << "\n";
  else
    PrintSummary(at_size, outcome, sweep.objective);
  if (outcome.interrupted) return InterruptedSummary(outcome.measured.size());
  return db::BestBy(outcome.stored, db::Objective::kTime) ? kExitOk : kExitFailed;
}

}  // namespace tuner
