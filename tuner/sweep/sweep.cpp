#include "sweep/sweep.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "common/still_notice.h"
#include "common/version.h"
#include "compile/compile_pool.h"
#include "compile/compile_queue.h"
#include "db/objective.h"
#include "search/first_sample.h"
#include "search/strategy_base.h"
#include "sweep/candidate_measurer.h"
#include "sweep/candidate_pipeline.h"
#include "sweep/current_toolchain.h"
#include "sweep/guided_search.h"
#include "sweep/hardware_pass.h"
#include "sweep/same_compile_error.h"
#include "sweep/stored_candidates.h"
#include "sweep/sweep_ledger.h"
#include "sweep/sweep_row.h"
#include "sweep/sweep_tie.h"
#include "sweep/timing_plan.h"
#include "sweep/warm_sources.h"
#include "sweep/worker_client.h"
#include "sweep/wrong_results_follow.h"

namespace tuner {

namespace {

constexpr std::size_t kCopyBytes = 256u << 20;  // the reference copy: 256 MiB device to device
constexpr std::chrono::milliseconds kCompilePoll{200};  // how often a wait for a compile looks at Ctrl-C

std::string CompilingFirst(std::size_t done, std::size_t of) {
  return "compiling its first candidates (" + std::to_string(done) + " of " + std::to_string(of) + " compiled)";
}

// Where a sweep's results go: the store's rows, set up before any candidate.
struct SweepPlace {
  std::int64_t gpu_id = 0, template_id = 0, sweep_id = 0;
};

// Starts the sweep's outcome and its row in the store.
SweepPlace StartSweep(const SweepTarget& target, const GpuInfo& gpu, const SweepOptions& options, db::Store& store,
                      SweepOutcome& outcome) {
  outcome.gpu = gpu;
  outcome.size = target.size;
  outcome.timing = options.timing;
  SweepPlace place;
  place.gpu_id = store.EnsureGpu({gpu, DriverVersion(), RuntimeVersion(), gpu.sm_clock_mhz});
  place.template_id = store.EnsureTemplate({target.spec.name, target.spec.hash, ""});
  db::SweepRecord sweep;
  sweep.command = options.command_line;
  sweep.strategy = options.strategy.name;
  sweep.budget = static_cast<std::int64_t>(options.strategy.max_evaluations);
  sweep.size_key = outcome.size.Key();
  sweep.status = "running";
  sweep.tool_version = kVersion;
  sweep.nvrtc_version = NvrtcVersion();
  sweep.started_at = db::NowUtc();
  place.sweep_id = store.StartSweep(place.gpu_id, place.template_id, sweep);
  return place;
}

// One sweep: which candidates, in which order, until when. Its parts do the rest: the candidate
// pipeline compiles, the worker client runs the GPU worker, the measurer makes a candidate's
// record, the ledger stores it, and the timing plan times the close ones and the leaders again.
class SweepRun {
 public:
  SweepRun(const SweepTarget& target, const GpuInfo& gpu, const SweepOptions& options, db::Store& store);
  SweepOutcome Run();

 private:
  StrategyOptions ChooseStrategy(const WarmStart* warm);
  BruteForceCost EstimateBruteForce(const WarmStart* warm);
  BruteForceCost SampleCost(std::size_t candidates) const;
  void CompleteEstimate();
  std::shared_ptr<const WarmStart> WarmStartFromStore();
  void StartCompiles();
  SetupRequest Setup();
  void TakeShare();
  void Resume();
  void MeasurePlanned(SearchStrategy& strategy);
  void MeasureInOrder(const std::vector<std::size_t>& order);
  void MeasureGuided(SearchStrategy& strategy);
  bool MeasureAndStore(std::size_t index, const Compiled& compiled, bool estimate_only);
  void StopOnSameCompileError(const Compiled& compiled);
  bool MeasureLeader(const std::string& params_json);
  void DecideTie();
  void MeasureCopyBandwidth();
  bool WantsProfiler() const;
  void MeasureHardware();
  void TimePipelineStages();
  bool OutOfTime() const;
  void ReportProgress() const;
  void Finish();

  const TemplateSpec& spec_;
  const std::vector<ParamValues>& all_;  // every candidate, in enumeration order
  const SweepOptions& options_;
  db::Store& store_;
  const SweepStop& stop_;
  SweepClock time_;
  SweepOutcome outcome_;
  SweepPlace place_;
  SweepRow row_;  // right after the row is started: any later exception marks it failed
  CandidateRecords records_;
  CandidatePipeline pipeline_;
  WorkerClient worker_;
  SweepLedger ledger_;
  CandidateMeasurer measurer_;
  StoredCandidates stored_;
  TimingPlan plan_;
  HardwarePass hardware_;
  SameCompileError same_error_{spec_};
  StillNotice still_{"tuner tune: " + spec_.name};  // before the first measurement, which the progress shows
  WrongResultsFollow wrong_results_{spec_};
  std::vector<bool> owned_;          // this node's share of all_ under --shard; empty: all
  std::vector<Evaluation> history_;  // stored before this run, then measured now: what the strategy sees
  std::vector<std::size_t> sample_;  // under --strategy auto, compiled first to estimate: a search measures them first
  std::size_t estimated_for_ = 0;    // the candidates brute force would measure, as estimated
  std::vector<Compiled> compiled_;   // the estimate's and a guided search's, by candidate index
  std::unique_ptr<CompileQueue> compiles_;  // until the sweep ends: compiles under way are not waited for
  std::unique_ptr<GuidedSearch> guided_;
  std::vector<OtherSweep> warm_sources_;  // the stored sweeps a warm start was made from
  bool copy_measured_ = false;
  std::size_t to_measure_ = 0;  // by this run, for the progress bar
  bool searching_ = false;      // a guided search without a budget: to_measure_ is the most it may
  const SweepClock::Clock::time_point started_ = SweepClock::Clock::now();
};

SweepRun::SweepRun(const SweepTarget& target, const GpuInfo& gpu, const SweepOptions& options, db::Store& store)
    : spec_(target.spec),
      all_(target.candidates),
      options_(options),
      store_(store),
      stop_(*options.stop),
      place_(StartSweep(target, gpu, options, store, outcome_)),
      row_(store, place_.sweep_id),
      records_(spec_, outcome_.gpu, outcome_.size, options.timing),
      pipeline_(spec_, outcome_.size, outcome_.gpu,
                {options.compile_threads, options.cache_dir, options.worker_executable}, time_),
      worker_(
          options.worker_executable, [this] { return Setup(); }, spec_.name, time_, stop_,
          [this] { return WantsProfiler(); }, options.reference_timeout_s),
      ledger_(store, place_.sweep_id, db::ToText(CurrentToolchain())),
      measurer_(
          worker_, pipeline_, records_, stop_, [this](const db::MeasurementRecord& r) { ledger_.Commit(r); },
          options.timeout_floor_s, options.tighten_deadlines),
      plan_({ledger_, measurer_, worker_, pipeline_, records_, stored_, options.leader_exchange, stop_, time_},
            [this](const std::string& params_json) { return MeasureLeader(params_json); }),
      hardware_(ledger_, worker_, pipeline_, measurer_, stop_, gpu.index) {}

SweepOutcome SweepRun::Run() {
  TakeShare();
  if (!options_.force) Resume();
  outcome_.already_stored = history_.size();
  const std::shared_ptr<const WarmStart> warm =
      options_.warm_start && options_.strategy.name != "brute_force" ? WarmStartFromStore() : nullptr;
  StrategyOptions strategy_options = ChooseStrategy(warm.get());
  if (strategy_options.max_evaluations) strategy_options.max_evaluations += history_.size();  // new evaluations only
  const bool planned = IsPlannedStrategy(strategy_options.name);
  if (strategy_options.name != "brute_force") {
    strategy_options.warm = warm;
    if (warm)
      std::cerr << "tuner tune: starting warm from " << OtherSweepsText(warm_sources_) << ": their "
                << SeedsWithinQuota(*warm, options_.strategy.max_evaluations).size()
                << " fastest configurations first, on top of a cold start's (--warm-start off: a cold start)\n";
  }
  if (!planned) strategy_options.first = sample_;
  const auto strategy = MakeStrategy(strategy_options, all_, spec_.params);
  // Brute force and random sampling do not look at results, so their whole order is known at once
  // and every candidate can be compiled ahead of the GPU.
  if (planned)
    MeasurePlanned(*strategy);
  else
    MeasureGuided(*strategy);
  if (!stop_.Requested()) plan_.ConfirmLeaders();
  if (!stop_.Requested()) DecideTie();
  if (!stop_.Requested() && spec_.pipeline.enabled) TimePipelineStages();
  // A pipeline's time is host memory to host memory: one kernel launch's counters and energy would not explain it.
  if (!stop_.Requested() && !spec_.pipeline.enabled) MeasureHardware();
  Finish();
  return outcome_;
}

// The strategy named, or under --strategy auto the one the estimated cost of brute force leads to,
// said on stderr.
StrategyOptions SweepRun::ChooseStrategy(const WarmStart* warm) {
  StrategyOptions chosen = options_.strategy;
  if (chosen.name != kAutoStrategy) {
    outcome_.strategy = NamedStrategy(chosen.name);
    if (!options_.strategy_reason.empty()) outcome_.strategy.reason = options_.strategy_reason;
    return chosen;
  }
  outcome_.strategy = tuner::ChooseStrategy(EstimateBruteForce(warm));
  std::cerr << "tuner tune: " << outcome_.strategy.reason << "\n";
  chosen.name = outcome_.strategy.strategy;
  chosen.min_expected_gain = outcome_.strategy.min_expected_gain;
  chosen.patience = outcome_.strategy.patience;
  return chosen;
}

// Compiles a sample of the candidates not stored yet (search/first_sample.h) until the choice is
// settled: every sampled compile done, or those still running already make brute force too long.
// The cubin cache's hits cost nothing, the misses' time is what every compile would take. A search
// measures the sample first, its slow compiles once they finish.
BruteForceCost SweepRun::EstimateBruteForce(const WarmStart* warm) {
  std::vector<bool> stored(all_.size(), false);
  for (const Evaluation& e : history_) stored[e.candidate] = true;
  std::vector<std::size_t> missing;
  for (std::size_t c = 0; c < all_.size(); ++c)
    if (!stored[c]) missing.push_back(c);
  estimated_for_ = missing.size();
  sample_ = FirstSample(missing, EstimateSampleSize(pipeline_.CompileThreads()), options_.strategy.seed, warm,
                        options_.strategy.max_evaluations);
  StartCompiles();
  for (const std::size_t c : sample_) compiles_->Push(c);
  if (!sample_.empty()) MeasureCopyBandwidth();  // the worker starts while the sample compiles
  const auto compiling = time_.Time(SweepClock::Part::kCompile);
  for (;;) {
    const BruteForceCost cost = SampleCost(missing.size());
    if (cost.Settled() || stop_.Requested()) return cost;
    std::vector<std::size_t> unfinished;
    for (const std::size_t c : sample_)
      if (!compiles_->Done(c)) unfinished.push_back(c);
    still_.Tick([&] {
      return "compiling a sample of " + std::to_string(sample_.size()) + " candidates to choose the search (" +
             std::to_string(sample_.size() - unfinished.size()) + " done)";
    });
    compiles_->FirstDone(unfinished, std::chrono::milliseconds(static_cast<int>(kEstimatePollS * 1000)));
  }
}

// The estimate as the sample's compiles stand now, for `candidates` still to measure.
BruteForceCost SweepRun::SampleCost(std::size_t candidates) const {
  BruteForceCost cost;
  cost.candidates = candidates;
  cost.compile_threads = pipeline_.CompileThreads();
  for (const std::size_t c : sample_) {
    const bool done = compiles_->Done(c);
    // Never compiled (invalid) or compiled before: no compile time.
    const bool cached = done && (!compiled_[c].invalid_reason.empty() || compiled_[c].compile.cache_hit);
    cost.AddSampled(done, cached, compiles_->Seconds(c).value_or(0));
  }
  return cost;
}

// A search chosen on a lower bound, once every sampled compile is done: the estimate in full, for
// tune --json (the reason stays what the choice was made on).
void SweepRun::CompleteEstimate() {
  if (!outcome_.strategy.at_least) return;
  const BruteForceCost cost = SampleCost(estimated_for_);
  if (cost.sample_running > 0) return;
  outcome_.strategy.brute_force_s = cost.Seconds();
  outcome_.strategy.at_least = false;
}

// The compile threads of the estimate and of a guided search, each candidate compiled into compiled_.
void SweepRun::StartCompiles() {
  if (compiles_) return;
  compiled_.resize(all_.size());
  compiles_ = std::make_unique<CompileQueue>(
      pipeline_.CompileThreads(), [this](std::size_t c, int slot) { compiled_[c] = pipeline_.Compile(all_[c], slot); });
}

// The template's other stored sweeps (other GPU models, other sizes) as a warm start; null when
// there are none.
std::shared_ptr<const WarmStart> SweepRun::WarmStartFromStore() {
  warm_sources_ = OtherSweeps(store_, spec_.name, spec_.hash, outcome_.gpu.name, outcome_.size.Key());
  if (warm_sources_.empty()) return nullptr;
  auto warm = std::make_shared<const WarmStart>(MakeWarmStart(all_, RecordsOf(warm_sources_)));
  return warm->sweeps == 0 ? nullptr : warm;
}

// The worker's setup: the buffers, the reference and the sweep's timing mode.
SetupRequest SweepRun::Setup() {
  SetupRequest setup = pipeline_.Setup();
  setup.timing = options_.timing;
  setup.batch_launches = options_.batch_launches;
  return setup;
}

// The candidates this node measures: all of them, or its share under --shard.
void SweepRun::TakeShare() {
  outcome_.candidates = all_.size();
  if (options_.node_shard.count > 1) {
    owned_ = ShardMembers(all_, options_.node_shard);
    outcome_.shard = options_.node_shard.Text();
  }
  outcome_.shard_candidates =
      owned_.empty() ? all_.size() : static_cast<std::size_t>(std::count(owned_.begin(), owned_.end(), true));
}

void SweepRun::Resume() {
  const std::string size_key = outcome_.size.Key();
  stored_ = ReadStoredCandidates(
      all_, OfTimingMode(store_.ModelMeasurements(place_.gpu_id, place_.template_id, size_key), options_.timing),
      OfTimingMode(store_.Measurements(place_.gpu_id, place_.template_id, size_key), options_.timing));
  history_ = stored_.history;
}

void SweepRun::MeasurePlanned(SearchStrategy& strategy) {
  const std::vector<std::size_t> order = PlannedShare(strategy, history_, owned_, options_.shard, options_.shards);
  to_measure_ = order.size();
  ReportProgress();
  MeasureInOrder(order);
  plan_.TimeCloseCandidates([this] { return OutOfTime(); });
}

// The first pass of a planned sweep: a one-launch estimate of every candidate, compiled ahead.
void SweepRun::MeasureInOrder(const std::vector<std::size_t>& order) {
  std::vector<Compiled> compiled(order.size());
  time_.SetCompileThreads(pipeline_.CompileThreads());
  auto pool = std::make_unique<CompilePool>(order.size(), pipeline_.CompileThreads(), [&](std::size_t i, int slot) {
    compiled[i] = pipeline_.Compile(all_[order[i]], slot);
  });
  if (!order.empty() && !copy_measured_)
    MeasureCopyBandwidth();  // the worker starts while the first candidates compile
  for (std::size_t i = 0; i < order.size() && !stop_.Requested() && !OutOfTime(); ++i) {
    {
      const auto compiling = time_.Time(SweepClock::Part::kCompile);  // the GPU is ready before the compile threads
      while (!pool->WaitFor(i, kCompilePoll)) {
        if (stop_.Requested()) break;
        if (ledger_.records().empty())
          still_.Tick([&] { return CompilingFirst(pool->Finished(), order.size()); });
      }
    }
    if (stop_.Requested() || !MeasureAndStore(order[i], compiled[i], true)) break;
  }
  const auto compiling = time_.Time(SweepClock::Part::kCompile);  // stopped early: the compiles under way finish
  pool.reset();
}

// Optimisers choose from the results so far: a few proposals ahead, each compiled when chosen
// (sweep/guided_search.h). Under --strategy auto the strategy proposes the estimate's sample first.
void SweepRun::MeasureGuided(SearchStrategy& strategy) {
  const std::size_t budget = options_.strategy.max_evaluations, missing = all_.size() - history_.size();
  to_measure_ = budget ? std::min(budget, missing) : missing;
  searching_ = budget == 0;
  ReportProgress();
  time_.SetCompileThreads(pipeline_.CompileThreads());
  StartCompiles();
  guided_ = std::make_unique<GuidedSearch>(strategy, DefaultLookAhead(pipeline_.CompileThreads()), *compiles_,
                                           options_.strategy.max_evaluations > 0);
  while (!stop_.Requested() && !OutOfTime()) {
    guided_->Refill(history_);  // the strategy's choices: the tuner's own work
    std::optional<std::size_t> next;
    {
      const auto compiling = time_.Time(SweepClock::Part::kCompile);  // the GPU waits for the compile threads
      next = guided_->Next(history_, [&] {
        if (ledger_.records().empty())
          still_.Tick([&] { return CompilingFirst(compiles_->done(), compiles_->started()); });
        return !stop_.Requested();
      });
    }
    if (!next || !MeasureAndStore(*next, compiled_[*next], false)) break;
    CompleteEstimate();
  }
}

// Returns false when the sweep stopped and nothing was stored.
bool SweepRun::MeasureAndStore(std::size_t index, const Compiled& compiled, bool estimate_only) {
  if (!copy_measured_) MeasureCopyBandwidth();
  const auto kills = stored_.kills.find(ParamsJson(all_[index]));
  std::optional<db::MeasurementRecord> record =
      measurer_.Measure(compiled, estimate_only, kills == stored_.kills.end() ? 0 : kills->second);
  if (!record || stop_.Requested()) return false;
  history_.push_back({index, IsOk(record->status), record->time_ms_median});
  const CandidateStatus status = record->status;
  ledger_.Add(std::move(*record), compiled);
  ReportProgress();
  StopOnSameCompileError(compiled);
  wrong_results_.Add(all_[index], status);
  return true;
}

// Throws when the candidates so far, and contrasts that differ from them in every varying
// parameter, all failed to compile with one error (sweep/same_compile_error.h).
void SweepRun::StopOnSameCompileError(const Compiled& compiled) {
  if (!same_error_.Add(compiled)) return;
  for (const ParamValues& contrast : same_error_.Contrasts(all_)) same_error_.Add(pipeline_.CompileNow(contrast));
  same_error_.StopIfConfirmed();
}

// A leader that this run has not measured: checked and timed here first.
bool SweepRun::MeasureLeader(const std::string& params_json) {
  const auto candidate =
      std::find_if(all_.begin(), all_.end(), [&](const ParamValues& p) { return ParamsJson(p) == params_json; });
  if (candidate == all_.end()) return true;
  ++to_measure_;
  return MeasureAndStore(static_cast<std::size_t>(candidate - all_.begin()), pipeline_.CompileNow(*candidate), false);
}

// The leaders as timed in turns: a tie among them is stored with its members (db/query/tie_rule.h),
// so every ranking serves the member the rule chose.
void SweepRun::DecideTie() {
  const std::vector<Leader> leaders = LeadersInTurns(ledger_.records(), stored_.ok);
  for (auto& [entry, member] : StampedTie(ledger_.records(), leaders, all_)) ledger_.Replace(entry, std::move(member));
}

// Once, as the worker first starts: the device-to-device copy that bandwidth-bound candidates are
// compared with.
void SweepRun::MeasureCopyBandwidth() {
  copy_measured_ = true;
  const WorkerAnswer<CopyBandwidthReply> copy = worker_.Call(CopyBandwidthRequest{kCopyBytes}, kSetupTimeoutS);
  if (copy.outcome == WorkerProcess::Outcome::kInterrupted) return;
  if (copy.body) outcome_.copy_gbps = copy.body->gbps;
  store_.SetCopyBandwidth(place_.sweep_id, outcome_.copy_gbps);
}

// CUPTI's configuration takes a while to build: a worker builds it while the sweep times.
bool SweepRun::WantsProfiler() const {
  return options_.counters != CounterMode::kOff && !spec_.pipeline.enabled &&
         hardware_.notes().counters_unavailable.empty();
}

void SweepRun::MeasureHardware() {
  std::vector<std::string> leaders;
  for (const Leader& leader : FastestLeaders(ledger_.records(), stored_.ok, kLeaders))
    leaders.push_back(leader.params_json);
  outcome_.hardware_pass = hardware_.Run(leaders, options_.counters, options_.objective);
  outcome_.counters_unavailable = hardware_.notes().counters_unavailable;
  outcome_.energy_unavailable = hardware_.notes().energy_unavailable;
}

// For a pipeline template, the winner of this run's copy in, kernel and copy out, each alone on the
// whole problem: the bound that its overlap approaches (explicit copies only).
void SweepRun::TimePipelineStages() {
  const std::vector<db::MeasurementRecord>& measured = ledger_.records();
  const std::optional<std::size_t> entry = db::BestIndex(measured, db::Objective::kTime);
  if (!entry) return;
  const db::MeasurementRecord* best = &measured[*entry];
  const KernelLaunch launch = pipeline_.Launch(ledger_.compiled(*entry));
  if (IsManaged(launch.pipeline.memory)) return;
  const WorkerAnswer<StageTimes> stages =
      worker_.Call(PipelineStagesRequest{launch}, measurer_.CandidateTimeoutS() * 3);
  if (stages.body)
    outcome_.pipeline_stages =
        PipelineStages{best->params_json, best->time_ms_median, launch.pipeline.Describe(), *stages.body};
}

bool SweepRun::OutOfTime() const {
  return options_.budget_seconds > 0 && SweepClock::SecondsSince(started_) > options_.budget_seconds;
}

void SweepRun::ReportProgress() const {
  if (options_.progress)
    options_.progress->Update(outcome_.gpu.index, {to_measure_, ledger_.records().size(), ledger_.failures(),
                                                   measurer_.best_ms(), searching_});
}

void SweepRun::Finish() {
  outcome_.interrupted = stop_.Reason() == StopReason::kInterrupted;
  row_.Finish(stop_.Requested() ? "interrupted" : "done");
  outcome_.stored =
      OfTimingMode(store_.Measurements(place_.gpu_id, place_.template_id, outcome_.size.Key()), options_.timing);
  AddThrottle(outcome_.throttle, measurer_.throttle());
  AddThrottle(outcome_.throttle, plan_.throttle());
  outcome_.launches_per_sample = measurer_.launches_per_sample();
  for (const auto& [params, launches] : plan_.launches_per_sample()) outcome_.launches_per_sample[params] = launches;
  outcome_.measured = ledger_.records();
  guided_.reset();
  compiles_.reset();  // compiles still under way finish here, after everything measured
  worker_.Stop();     // the worker ends with the sweep
  outcome_.time = time_.Split();
}

}  // namespace

SweepOutcome RunSweep(const SweepTarget& target, const GpuInfo& gpu, const SweepOptions& options, db::Store& store) {
  return SweepRun(target, gpu, options, store).Run();
}

}  // namespace tuner
