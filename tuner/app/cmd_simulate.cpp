// tuner simulate: replay a complete stored sweep without a GPU and count, per search strategy, the
// evaluations needed to come within 5% (--within) of the sweep's optimum (simulation.h).
#include <algorithm>
#include <atomic>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/stored_template.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "common/progress_bar.h"
#include "common/text_table.h"
#include "common/whole_file.h"
#include "db/model_sweep.h"
#include "db/query/selection.h"
#include "db/query/store.h"
#include "db/row_json.h"
#include "db/query/imported_gpu.h"
#include "search/simulation.h"
#include "sweep/guided_search.h"
#include "sweep/strategy_choice.h"
#include "sweep/warm_sources.h"
#include "template/problem_size.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

constexpr long long kMaxRuns = 100000;
constexpr int kAutoCompileThreads = 16;  // the H100 host's cores: tune's sample and look-ahead there

struct SimulateOptions {
  std::string kernel;
  std::string size_key;
  std::vector<std::string> strategies;
  std::size_t runs = 0;
  StrategyOptions strategy;  // budget and seed; the name is set per strategy
  bool warm_start = false;   // each strategy but brute force also from the other stored sweeps
  std::string orders_path;   // --orders: each run's configurations in order, as JSON lines ("": none)
  std::string card;          // --card: that card's results alone ("": each model's cards as one sweep)
  double tolerance = 0.05;   // --within: the target, a fraction above the optimum
};

// One GPU model's complete sweep (or, with --card, one card's), replayable.
struct StoredSweep {
  db::GpuRecord gpu;               // the card's, or the model's when several cards measured parts of it
  std::vector<std::string> cards;  // their UUIDs
  std::string template_hash;
  Landscape landscape;
};

std::vector<std::string> ParseStrategies(const std::string& text) {
  if (text == "all") return StrategyNames();
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    names.push_back(text.substr(start, comma - start));
    RequireStrategyName(names.back(), {kAutoStrategy});
    start = comma + 1;
  }
  return names;
}

// Everything but the size, which needs the template.
SimulateOptions ReadOptions(const po::variables_map& vm) {
  SimulateOptions o;
  o.kernel = KernelArgument(vm);
  o.strategies = ParseStrategies(vm["strategy"].as<std::string>());
  o.runs = static_cast<std::size_t>(
      ParseWholeNumber("runs", vm["runs"].as<std::string>(), 1, kMaxRuns, "more runs hardly change the statistics"));
  o.strategy.max_evaluations = BudgetOption(vm);
  o.strategy.seed = SeedOption(vm);
  o.warm_start = vm.count("warm-start") > 0;
  if (vm.count("orders")) o.orders_path = vm["orders"].as<std::string>();
  if (vm.count("card")) o.card = vm["card"].as<std::string>();
  o.tolerance =
      ParseWholeNumber("within", vm["within"].as<std::string>(), 0, 100, "a percentage above the optimum") / 100.0;
  return o;
}

// The template's other stored sweeps, as `tune --warm-start auto` would find them for this GPU model;
// null (and said) when there are none.
std::shared_ptr<const WarmStart> WarmStartFor(db::Store& store, const SimulateOptions& o, const StoredSweep& sweep) {
  const std::vector<OtherSweep> others = OtherSweeps(store, o.kernel, sweep.template_hash, sweep.gpu.name, o.size_key);
  auto warm = std::make_shared<const WarmStart>(MakeWarmStart(sweep.landscape.candidates, RecordsOf(others)));
  if (warm->sweeps > 0) {
    std::cerr << "tuner simulate: " << sweep.gpu.name << ": warm start from " << OtherSweepsText(others) << "\n";
    return warm;
  }
  std::cerr << "tuner simulate: " << sweep.gpu.name << ": no other stored sweep of '" << o.kernel
            << "' to start warm from (another GPU model, another size)\n";
  return nullptr;
}

// --strategy auto as tune runs it when it searches, timed, on a host of kAutoCompileThreads cores:
// its estimate's sample (and the warm start's seeds on top, first) compiling from the start, the
// search from when the estimate settled, then the Bayesian strategy under its stopping rule,
// proposals made a look-ahead ahead of results and measured as they compile.
void AsAutoSearches(const Landscape& landscape, StrategyOptions& options, ReplayShape& shape) {
  options.name = "bayesian";
  options.min_expected_gain = kAutoMinExpectedGain;
  options.patience = kAutoPatience;
  shape.first_sample = EstimateSampleSize(kAutoCompileThreads);
  shape.look_ahead = DefaultLookAhead(kAutoCompileThreads);
  shape.compile_threads = kAutoCompileThreads;
  shape.gpu_floor_s = kGpuFloorS;
  shape.search_starts_s = [&landscape](const std::vector<std::size_t>& sample) {
    std::vector<double> compile_s;
    for (const std::size_t c : sample) compile_s.push_back(landscape.compile_ms[c] / 1000);
    return SettlesAfterS(compile_s, landscape.candidates.size(), kAutoCompileThreads);
  };
}

// What `tune --strategy auto` would choose for this space, from its stored compile times, on a
// host of kAutoCompileThreads cores (as AsAutoSearches replays it), said on stderr.
StrategyChoice AutoChoice(const StoredSweep& sweep) {
  StrategyChoice choice = ChooseStrategy(StoredBruteForceCost(sweep.landscape.compile_ms, kAutoCompileThreads));
  std::cerr << "tuner simulate: " << sweep.gpu.name << ": auto: " << choice.reason << "\n";
  return choice;
}

// Each strategy's summary from a cold start, and with a warm start (but brute force's) where there
// is one. `auto` runs what tune's default would run (`choice`): brute force, or its search as tune
// runs it (AsAutoSearches), under its own name.
std::vector<StrategySummary> SimulateSweep(const StoredSweep& sweep, const SimulateOptions& o,
                                           const std::shared_ptr<const WarmStart>& warm,
                                           const std::optional<StrategyChoice>& choice,
                                           const std::function<void()>& run_done) {
  std::vector<StrategySummary> summaries;
  for (const std::string& name : o.strategies) {
    StrategyOptions options = o.strategy;
    options.name = name;
    ReplayShape shape;
    if (name == kAutoStrategy && choice->strategy == "brute_force")
      options.name = "brute_force";
    else if (name == kAutoStrategy)
      AsAutoSearches(sweep.landscape, options, shape);
    summaries.push_back(SimulateStrategy(sweep.landscape, options, o.runs, o.tolerance, run_done, {}, shape));
    summaries.back().strategy = name;
    if (!warm || options.name == "brute_force") continue;
    options.warm = warm;
    summaries.push_back(SimulateStrategy(sweep.landscape, options, o.runs, o.tolerance, run_done, {}, shape));
    summaries.back().strategy = name + " (warm)";
  }
  return summaries;
}

// The stored sweeps of this template version and size: one per GPU model, whose cards' results
// are one sweep (db/model_sweep.h), or with --card that card's alone.
std::vector<db::ModelSweep> StoredSweeps(db::Store& store, const SimulateOptions& o, const std::string& device,
                                         const std::string& hash) {
  db::MeasurementFilter filter;
  filter.template_name = o.kernel;
  filter.gpu_name = device;
  filter.size_key = o.size_key;
  std::vector<db::MeasurementRow> rows;
  std::size_t other_versions = 0;
  for (db::MeasurementRow& row : store.ListMeasurements(filter)) {
    if (!o.card.empty() && row.gpu.uuid != o.card) continue;
    if (row.templ.hash == hash)
      rows.push_back(std::move(row));
    else
      ++other_versions;
  }
  if (!rows.empty()) return db::SweepsPerModel(rows, [](const db::GpuRecord& gpu) { return db::IsImportedGpu(gpu); });
  std::string what = "no sweep of '" + o.kernel + "' at size " + o.size_key;
  if (!device.empty()) what += " on a GPU matching " + Quoted(device);
  if (!o.card.empty()) what += " on the card " + Quoted(o.card);
  what += " is stored in " + store.path();
  if (other_versions > 0)
    what +=
        " for the current version of the template (" + std::to_string(other_versions) + " results of other versions)";
  throw std::runtime_error(what + "; run 'tuner tune " + o.kernel + "' on a GPU first");
}

// The complete sweeps; incomplete ones are named on stderr, and none at all is an error.
std::vector<StoredSweep> CompleteSweeps(const std::vector<db::ModelSweep>& stored,
                                        const std::optional<TemplateSpec>& spec, const SimulateOptions& o,
                                        const std::string& hash) {
  std::vector<StoredSweep> sweeps;
  std::string problems;
  for (const db::ModelSweep& model : stored) {
    std::vector<db::MeasurementRecord> records;
    for (const db::MeasurementRow& row : model.rows) records.push_back(row.measurement);
    const std::string where =
        o.kernel + " " + o.size_key + " on " + model.gpu.name + " (" + db::CardsText(model.cards) + ")";
    try {
      Landscape landscape = spec ? LandscapeFromRecords(EnumerateCandidates(*spec, ParseProblemSize(*spec, o.size_key)),
                                                        spec->params, records)
                                 : LandscapeFromRecordsOnly(records);
      if (!landscape.Optimum()) throw IncompleteSweepError("no candidate succeeded");
      sweeps.push_back({model.gpu, model.cards, hash, std::move(landscape)});
    } catch (const IncompleteSweepError& e) {
      problems += (problems.empty() ? "" : "; ") + Printable(where) + ": " + e.what();  // one line in all
    }
  }
  if (sweeps.empty())
    throw std::runtime_error("no complete sweep to replay (" + problems + "); run 'tuner tune " + o.kernel +
                             "' (brute force) on that GPU to complete it");
  if (!problems.empty()) std::cerr << "tuner simulate: skipping incomplete sweeps (" << problems << ")\n";
  if (!spec)
    std::cerr << "tuner simulate: template '" << o.kernel << "' is not at hand; the stored candidates are the space\n";
  return sweeps;
}

ordered_json OptionalJson(const std::optional<double>& value) { return value ? ordered_json(*value) : ordered_json(); }

// "5pct" for 0.05: the JSON keys and the table name the target.
std::string PercentKey(double tolerance) { return Fixed(tolerance * 100, 0) + "pct"; }

ordered_json SummaryJson(const StrategySummary& s, double tolerance) {
  return {{"strategy", s.strategy},
          {"runs", s.runs},
          {"reached", s.reached},
          {"reached_fraction", s.runs ? static_cast<double>(s.reached) / static_cast<double>(s.runs) : 0.0},
          {"evaluations_to_within_" + PercentKey(tolerance),
           {{"mean", OptionalJson(s.mean_to_target)},
            {"median", OptionalJson(s.median_to_target)},
            {"min", s.min_to_target ? ordered_json(*s.min_to_target) : ordered_json()},
            {"max", s.max_to_target ? ordered_json(*s.max_to_target) : ordered_json()}}},
          {"evaluations_mean", s.mean_evaluations},
          {"seconds_to_within_" + PercentKey(tolerance) + "_mean", OptionalJson(s.mean_seconds_to_target)},
          {"seconds_mean", s.mean_seconds > 0 ? ordered_json(s.mean_seconds) : ordered_json()},
          {"best_over_optimum_mean", s.mean_best_ratio},
          {"methodology_score", OptionalJson(s.methodology_score)}};
}

ordered_json SweepJson(const StoredSweep& sweep, const std::vector<StrategySummary>& summaries, double tolerance,
                       const std::optional<StrategyChoice>& choice) {
  const Landscape& l = sweep.landscape;
  const std::size_t optimum = *l.Optimum();
  std::size_t within = 0;
  for (const auto& t : l.time_ms) within += t && *t <= *l.time_ms[optimum] * (1 + tolerance);
  ordered_json out = {
      {"gpu", db::ToJson(sweep.gpu)},
      {"imported", db::IsImportedGpu(sweep.gpu)},
      {"cards", sweep.cards},
      {"template_hash", sweep.template_hash},
      {"candidates", l.candidates.size()},
      {"ok", l.OkCount()},
      {"within_" + PercentKey(tolerance), within},
      {"optimum",
       {{"params", ordered_json::parse(ParamsJson(l.candidates[optimum]))}, {"time_ms", *l.time_ms[optimum]}}},
      {"strategies", ordered_json::array()}};
  for (const StrategySummary& s : summaries) out["strategies"].push_back(SummaryJson(s, tolerance));
  if (choice) out["auto"] = ordered_json::parse(ToJson(*choice).dump());
  return out;
}

std::string Cell(const std::optional<double>& value) { return value ? Fixed(*value, 1) : "-"; }

void PrintSweep(const StoredSweep& sweep, const std::vector<StrategySummary>& summaries, const SimulateOptions& o) {
  const Landscape& l = sweep.landscape;
  const std::size_t optimum = *l.Optimum();
  std::cout << o.kernel << " " << o.size_key << " on " << sweep.gpu.name << " ("
            << (db::IsImportedGpu(sweep.gpu) ? "imported" : db::CardsText(sweep.cards)) << "): " << l.candidates.size()
            << " candidates, " << l.OkCount() << " ok, optimum " << Fixed(*l.time_ms[optimum], 4) << " ms "
            << ParamsJson(l.candidates[optimum]) << "\n";
  const std::string target = Fixed(o.tolerance * 100, 0) + "%";
  TextTable table({"strategy", "reached", "evals to " + target + " mean", "median", "min", "max", "evals used",
                   "s to " + target, "s used", "best/opt", "score"});
  for (const StrategySummary& s : summaries)
    table.Add({s.strategy, std::to_string(s.reached) + "/" + std::to_string(s.runs), Cell(s.mean_to_target),
               Cell(s.median_to_target), s.min_to_target ? std::to_string(*s.min_to_target) : "-",
               s.max_to_target ? std::to_string(*s.max_to_target) : "-", Fixed(s.mean_evaluations, 1),
               Cell(s.mean_seconds_to_target), s.mean_seconds > 0 ? Fixed(s.mean_seconds, 1) : "-",
               Fixed(s.mean_best_ratio, 3), s.methodology_score ? Fixed(*s.methodology_score, 3) : "-"});
  table.Print(std::cout);
  if (std::any_of(summaries.begin(), summaries.end(), [](const StrategySummary& s) { return s.mean_seconds > 0; }))
    std::cout << "seconds: auto's search as tune runs it on " << kAutoCompileThreads
              << " compile threads, each compile its stored time (the sweep's setup and leaders not counted)\n";
  if (!summaries.empty() && !summaries.front().methodology_score)
    std::cout << "no methodology score: " << summaries.front().score_note << "\n";
  else
    std::cout << "score: the methodology of Willemsen et al. 2024 (0 random search, 1 the optimum from the start), "
                 "each evaluation charged its stored compile and run time\n";
}

// One JSON line per run: the GPU, the strategy, the run and its configurations in the order
// evaluated (what bench/compare_methodology_score.sh hands the methodology's own package).
std::string OrderLines(const StoredSweep& sweep, const std::vector<StrategySummary>& summaries) {
  std::string lines;
  for (const StrategySummary& s : summaries)
    for (std::size_t run = 0; run < s.orders.size(); ++run) {
      ordered_json configurations = ordered_json::array();
      for (const std::size_t c : s.orders[run])
        configurations.push_back(ordered_json::parse(ParamsJson(sweep.landscape.candidates[c])));
      lines +=
          ordered_json{
              {"gpu", sweep.gpu.name}, {"strategy", s.strategy}, {"run", run}, {"configurations", configurations}}
              .dump() +
          "\n";
    }
  return lines;
}

}  // namespace

int RunSimulate(int argc, char** argv) {
  const CommandSpec spec{
      "simulate",
      "tuner simulate KERNEL [--size WxH] [--device NAME] [--strategy S|all] [--budget N] [--runs R] "
      "[--card UUID] [--seed S] [--within PCT] [--warm-start] [--orders FILE] [--db PATH] [--json]",
      "Replay a complete stored sweep without a GPU: each strategy's evaluations are answered from\n"
      "the stored results. Prints, per strategy, how many evaluations it needed to come within 5% of\n"
      "the optimum (over R runs seeded S, S+1, ...), how often it got there within the budget, and the\n"
      "community's methodology score (Willemsen et al. 2024; 0 is random search, 1 the optimum from the\n"
      "start), each evaluation charged the compile and run time stored for it. Sweeps are per GPU\n"
      "model: the results of several cards of one model (tune --gpus, --shard) replay as one sweep,\n"
      "each candidate's result from the card that measured it (--card UUID: one card's alone). Sweeps\n"
      "imported from published results ('tuner import kernel-tuner-cache|t4') replay like measured ones.",
      "tuner simulate transpose --strategy all --runs 50"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddKernelArgument(options, positional);
  AddSizeOption(options, "problem size of the stored sweep; omitted sizes take the template's defaults");
  AddDeviceOption(options, "default: every one");
  options.add_options()("card", po::value<std::string>()->value_name("UUID"),
                        "only this card's results, as a sweep of their own (default: the cards of each GPU "
                        "model as one sweep)");
  options.add_options()(
      "strategy", po::value<std::string>()->value_name("LIST")->default_value("all"),
      "all, or a comma-separated list of: auto (what tune's default would run here: brute force "
      "when the stored compile times say it takes at most 2 minutes, else its search as on "
      "a 16-core host: a 16-candidate sample (and the warm seeds on top, first), then bayesian under auto's stopping "
      "rule, 16 proposals ahead of the results, timed by the stored compile times: 's to' and 's "
      "used'), brute_force, random, annealing, genetic, bayesian");
  AddBudgetOption(options, "at most N evaluations per run (0: until the strategy stops)");
  options.add_options()("within", po::value<std::string>()->value_name("PCT")->default_value("5"),
                        "the target: within PCT percent of the optimum (0 to 100)");
  options.add_options()("runs", po::value<std::string>()->value_name("R")->default_value("50"),
                        "runs per strategy, seeded S, S+1, ... (1 to 100000)");
  AddSeedOption(options, "0", "seed of the first run (0 to 2^64-1)");
  options.add_options()("warm-start",
                        "also run each strategy but brute force from a warm start: the template's other stored "
                        "sweeps (other GPU models, other sizes), as tune --warm-start auto uses them");
  options.add_options()("orders", po::value<std::string>()->value_name("FILE"),
                        "also write each run's configurations, in the order evaluated, to FILE (JSON lines)");
  AddJsonOption(options);
  AddTemplatesOption(options);
  AddDatabaseOption(options);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;

  SimulateOptions o = ReadOptions(vm);
  const std::string size_text = SizeOption(vm);
  const auto dirs = TemplateFolders(vm);
  const std::optional<TemplateSpec> templ = FindTemplateIfAny(dirs, o.kernel);
  o.size_key = ResolveSizeKey(templ, o.kernel, size_text);

  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  const std::string hash = templ ? templ->hash : store.LatestTemplateHash(o.kernel);
  const auto stored = StoredSweeps(store, o, DeviceFilter(vm), hash);
  ordered_json doc = {{"kernel", o.kernel},       {"size", o.size_key},
                      {"database", store.path()}, {"tolerance", o.tolerance},
                      {"runs", o.runs},           {"budget", o.strategy.max_evaluations},
                      {"seed", o.strategy.seed},  {"sweeps", ordered_json::array()}};
  const auto sweeps = CompleteSweeps(stored, templ, o, hash);
  if (!o.orders_path.empty()) RequireNoFolder("orders", o.orders_path);
  std::string orders;
  static std::atomic<bool> interrupted{false};  // Ctrl-C ends the replays after the run in flight, writing nothing
  StopOnInterrupt(&interrupted);
  ProgressBar progress(ProgressStyleFor(StderrIsTerminal()), "tuner simulate", false);
  ProgressCounts runs{sweeps.size() * o.strategies.size() * o.runs * (o.warm_start ? 2 : 1), 0, 0, 0};
  for (const StoredSweep& sweep : sweeps) {
    const auto warm = o.warm_start ? WarmStartFor(store, o, sweep) : nullptr;
    const bool has_auto = std::count(o.strategies.begin(), o.strategies.end(), kAutoStrategy) > 0;
    const std::optional<StrategyChoice> choice = has_auto ? std::optional(AutoChoice(sweep)) : std::nullopt;
    const std::vector<StrategySummary> summaries = SimulateSweep(sweep, o, warm, choice, [&] {
      ++runs.done;
      progress.Update(0, runs);
      ThrowIfInterrupted("simulate");
    });
    progress.Finish();
    if (!o.orders_path.empty()) orders += OrderLines(sweep, summaries);
    if (JsonOutput(vm))
      doc["sweeps"].push_back(SweepJson(sweep, summaries, o.tolerance, choice));
    else
      PrintSweep(sweep, summaries, o);
  }
  if (!o.orders_path.empty()) WriteWholeFile(o.orders_path, orders);
  if (JsonOutput(vm)) std::cout << doc.dump(2) << "\n";
  return kExitOk;
}

}  // namespace tuner
