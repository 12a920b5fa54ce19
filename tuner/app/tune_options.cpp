#include "app/tune_options.h"

#include <climits>
#include <cmath>
#include <regex>
#include <sstream>

#include "app/command_options.h"
#include "base/errors.h"
#include "base/number_text.h"
#include "common/option_values.h"
#include "search/search_strategy.h"
#include "sweep/hardware_plan.h"
#include "sweep/shard.h"
#include "sweep/strategy_choice.h"
#include "template/data_files.h"

namespace tuner {

namespace {

// Limits that keep a deadline a representable time: longer than any kernel should ever run.
constexpr double kMaxTimeoutFloorS = 86400;

std::string JoinArgs(int argc, char** argv) {
  std::string line = "tuner";
  for (int i = 0; i < argc; ++i) line += std::string(" ") + argv[i];
  return line;
}

void AddSweepOptions(po::options_description& options) {
  options.add_options()(
      "shard", po::value<std::string>()->value_name("K/N"),
      "K/N: measure this node's share K of N (a job array over several nodes; then 'tuner db merge')")(
      "force", "measure candidates that are already stored again")(
      "strategy", po::value<std::string>()->value_name("STRATEGY")->default_value(kAutoStrategy),
      "auto (brute force when it takes at most 2 minutes here, else bayesian until the expected gain is below "
      "0.5%; brute force under --gpus and --shard), brute_force, random, annealing, genetic or bayesian");
  AddBudgetOption(options, "at most this many candidates evaluated (0: no limit)");
  options.add_options()("budget-seconds", po::value<std::string>()->value_name("SECONDS")->default_value("0"),
                        "stop measuring after this many seconds (0: no limit)");
  AddSeedOption(options, "1", "seed of the random and optimising strategies (0 to 2^64-1)");
  options.add_options()(
      "warm-start", po::value<std::string>()->value_name("MODE")->default_value("auto"),
      "auto: a strategy other than brute force first evaluates the fastest configurations of the template's "
      "other stored sweeps (other GPU models, other sizes), at most 5, on top of the search it makes "
      "from a cold start; off: a cold start")(
      "timeout-floor", po::value<std::string>()->value_name("SECONDS")->default_value("10"),
      "seconds a candidate may always take before it is killed (0.001 to 86400); unset, 10 "
      "until a candidate answered, then shorter where kernels take milliseconds")(
      "reference-timeout",
      po::value<std::string>()->value_name("SECONDS")->default_value(
          std::to_string(static_cast<int>(kReferenceTimeoutS))),
      "seconds the reference kernel may run before it is stopped and the sweep ends saying so (0.001 to 86400)")(
      "counters", po::value<std::string>()->value_name("WHICH")->default_value("winner"),
      "hardware counters after timing: winner (the winner, the runners-up and the winner's one-parameter "
      "neighbours, 6 at most), explain (those and one candidate of each parameter value, the winner's neighbour "
      "where there is one), all, or off; energy for the winner unless off, for all under all");
  AddObjectiveOption(options, "energy objectives measure every correct candidate's energy");
  AddTimingOption(options,
                  "how launches are timed: isolated (L2 flushed, one launch between two events), back_to_back "
                  "(a batch of launches on one stream, time / launches) or graph (the batch captured in a CUDA graph, "
                  "one replay, time / launches); default: the template's [timing] mode, else isolated");
  options.add_options()("launches-per-sample", po::value<std::string>()->value_name("N"),
                        "back_to_back and graph: the launches a sample times together, 1 to 65536, e.g. the "
                        "launches of your application's graph; default: about 1 ms of them, a power of two up to 512");
}

// --strategy, --budget, --seed.
StrategyOptions ReadStrategy(const po::variables_map& vm) {
  StrategyOptions strategy;
  strategy.name = vm["strategy"].as<std::string>();
  RequireStrategyName(strategy.name, {kAutoStrategy});
  strategy.max_evaluations = BudgetOption(vm);
  strategy.seed = SeedOption(vm);
  return strategy;
}

// --warm-start auto|off.
bool ReadWarmStart(const po::variables_map& vm) {
  const std::string value = vm["warm-start"].as<std::string>();
  if (value != "auto" && value != "off") throw UsageError("--warm-start " + Quoted(value) + ": expected auto or off");
  return value == "auto";
}

SweepOptions ReadSweepOptions(const po::variables_map& vm, int argc, char** argv) {
  SweepOptions sweep;
  sweep.force = vm.count("force") > 0;
  sweep.timeout_floor_s = ParseSeconds("timeout-floor", vm["timeout-floor"].as<std::string>(), 0.001, kMaxTimeoutFloorS,
                                       "a candidate's deadline; a day at most");
  sweep.tighten_deadlines = vm["timeout-floor"].defaulted();  // a floor the user sets is kept
  sweep.reference_timeout_s = ParseSeconds("reference-timeout", vm["reference-timeout"].as<std::string>(), 0.001,
                                           kMaxTimeoutFloorS, "the reference's deadline; a day at most");
  sweep.command_line = JoinArgs(argc, argv);
  sweep.strategy = ReadStrategy(vm);
  sweep.warm_start = ReadWarmStart(vm);
  sweep.budget_seconds =
      ParseSeconds("budget-seconds", vm["budget-seconds"].as<std::string>(), 0, HUGE_VAL, "0: no limit");
  if (sweep.strategy.name == kAutoStrategy && (vm.count("gpus") || vm.count("shard"))) {
    const StrategyChoice shared = BruteForceToShare(vm.count("gpus") ? "--gpus" : "--shard");
    sweep.strategy.name = shared.strategy;
    sweep.strategy_reason = shared.reason;
  }
  if (vm.count("gpus") && !IsPlannedStrategy(sweep.strategy.name))
    throw UsageError("--gpus shares the candidates of brute_force and random sweeps; tune with --strategy " +
                     sweep.strategy.name + " one GPU at a time (--gpu N)");
  return sweep;
}

// --shard K/N, which only a planned strategy can share out.
Shard ReadShard(const po::variables_map& vm, const StrategyOptions& strategy) {
  if (!vm.count("shard")) return {};
  const Shard shard = ParseShard(vm["shard"].as<std::string>());
  if (!IsPlannedStrategy(strategy.name))
    throw UsageError("--shard shares the candidates of brute_force and random sweeps; --strategy " + strategy.name +
                     " chooses each candidate from the results before it, so it runs on one node");
  return shard;
}

// --size or --sizes, --gpu or --gpus, and not several sizes on several GPUs.
void ReadSizesAndGpus(const po::variables_map& vm, TuneOptions& o) {
  RefuseTogether(vm, "gpu", "gpus");
  RefuseTogether(vm, "size", "sizes");
  if (vm.count("sizes")) {
    o.sizes = vm["sizes"].as<std::string>();
    CheckSizeList(*o.sizes);
    if (vm.count("gpus"))
      throw UsageError(
          "--sizes and --gpus: tune several sizes on one GPU (--gpu N), or one size at a time on several GPUs");
  }
  o.gpu = GpuOption(vm).value_or(0);
  o.size_text = SizeOption(vm);
}

// --revalidate: every stored size on one GPU, its leaders measured again; what chooses sizes, GPUs
// or candidates does not go with it.
bool ReadRevalidate(const po::variables_map& vm) {
  if (!vm.count("revalidate")) return false;
  for (const char* option : {"size", "sizes", "gpus", "shard", "force", "strategy", "budget", "budget-seconds", "seed"})
    if (vm.count(option) && !vm[option].defaulted())
      throw UsageError(std::string("--revalidate and --") + option +
                       ": --revalidate measures again the stored leaders of every tuned size of the kernel on one "
                       "GPU (--gpu N), and tunes a size again where its winner changed; leave --" +
                       option + " out");
  return true;
}

}  // namespace

void AddTuneOptions(po::options_description& options, po::positional_options_description& positional) {
  AddKernelArgument(options, positional, "the template to tune (see 'tuner kernels')");
  AddSizeOption(options,
                "problem size, e.g. 8192x8192 (the template's size variables in order); omitted sizes take the "
                "template's defaults");
  options.add_options()(
      "sizes", po::value<std::string>()->value_name("LIST"),
      "several sizes in one run, e.g. 1024x256,4096x256, or 'captured' (every size the template has data for)");
  AddGpuOption(options, "GPU index (see 'tuner devices'; default 0)");
  options.add_options()("gpus", po::value<std::string>()->value_name("LIST"),
                        "several GPUs at once: 'all' or 0,1 (one worker each; GPUs of one model share the candidates)");
  AddSweepOptions(options);
  options.add_options()("revalidate",
                        "measure the stored leaders of every tuned size again on this GPU and toolchain: keep what "
                        "holds, flag regressions beyond the noise, store failures (never served) and tune a size "
                        "again where its winner changed");
  AddJsonOption(options);
  AddTemplatesOption(options);
  AddDatabaseOption(options);
}

TuneOptions ReadTuneOptions(const po::variables_map& vm, int argc, char** argv) {
  TuneOptions o;
  o.revalidate = ReadRevalidate(vm);
  ReadSizesAndGpus(vm, o);
  o.sweep = ReadSweepOptions(vm, argc, argv);
  if (vm.count("gpus")) o.gpus = ParseGpuList(vm["gpus"].as<std::string>());
  o.sweep.node_shard = ReadShard(vm, o.sweep.strategy);
  o.sweep.counters = ParseCounterMode(vm["counters"].as<std::string>());
  o.sweep.objective = ObjectiveOption(vm);
  o.timing = TimingOption(vm);
  if (vm.count("launches-per-sample"))
    o.sweep.batch_launches = static_cast<int>(ParseWholeNumber(
        "launches-per-sample", vm["launches-per-sample"].as<std::string>(), 1, kMostLaunchesPerSample));
  o.kernel = KernelArgument(vm);
  o.template_folders = TemplateFolders(vm);
  o.db_path = DatabasePath(vm);
  o.json = JsonOutput(vm);
  return o;
}

std::vector<int> ParseGpuList(const std::string& text) {
  std::vector<int> indices;
  if (text == "all") return indices;
  const std::string malformed = "--gpus " + Quoted(text) + ": expected 'all' or GPU indices joined by commas, e.g. 0,1";
  if (!std::regex_match(text, std::regex("[0-9]+(,[0-9]+)*"))) throw UsageError(malformed);
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const std::optional<WholeNumberText> number = ReadWholeNumber(item);
    if (!number || number->negative || !number->magnitude ||
        *number->magnitude > static_cast<unsigned long long>(INT_MAX))
      throw UsageError(malformed);
    const int index = static_cast<int>(*number->magnitude);
    for (int seen : indices)
      if (seen == index) throw UsageError("--gpus " + Quoted(text) + ": GPU " + item + " is listed twice");
    indices.push_back(index);
  }
  if (indices.empty()) throw UsageError("--gpus " + Quoted(text) + ": no GPU given");
  return indices;
}

std::vector<ProblemSize> SizesToTune(const TemplateSpec& templ, const TuneOptions& options) {
  if (!options.sizes) return {ParseProblemSize(templ, options.size_text)};
  if (*options.sizes == kCapturedSizes) return SizesWithData(templ);
  return ParseProblemSizes(templ, *options.sizes);
}

}  // namespace tuner
