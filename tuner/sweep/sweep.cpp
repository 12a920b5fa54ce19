#include "sweep/sweep.h"

#include <algorithm>
#include <iostream>
#include <chrono>
#include <map>
#include <set>
#include <memory>
#include <thread>

#include "sweep/candidate_record.h"
#include "compile/compile_pool.h"
#include "compile/cubin_cache.h"
#include "db/query/default_paths.h"
#include "occupancy/device_limits.h"
#include "template/expression.h"
#include "measure/hardware_profiler.h"
#include "sweep/leader_summary.h"
#include "occupancy/occupancy.h"
#include "compile/parallel_compiler.h"
#include "template/pipeline_spec.h"
#include "template/search_space.h"
#include "sweep/sweep_time.h"
#include "common/version.h"
#include "common/worker_process.h"
#include "measure/worker_protocol.h"

namespace tuner {

std::atomic<bool> g_sweep_interrupted{false};

namespace {

constexpr std::size_t kCopyBytes = 256u << 20;  // the reference copy: 256 MiB device to device
constexpr double kSetupTimeoutS = 300;
constexpr std::size_t kLeaders = 3;


class SweepRun {
 public:
  SweepRun(const TemplateSpec& spec, const SweepOptions& options, db::Store& store)
      : spec_(spec), options_(options), store_(store) {}

  SweepOutcome Run();

 private:
  void Prepare();
  void ResumeFromStore();
  std::vector<std::size_t> PlannedOrder(SearchStrategy& strategy) const;
  void MeasureInOrder(const std::vector<std::size_t>& order);
  void MeasureGuided(SearchStrategy& strategy);
  bool MeasureAndStore(std::size_t index, const Compiled& compiled, bool estimate_only);
  void StartMeasuring();
  bool OutOfTime() const;
  void ReportProgress() const;
  Compiled CompileOne(const ParamValues& params, int slot);
  Compiled CompileNow(const ParamValues& params);
  int CompileThreads() const;
  KernelLaunch MakeLaunch(const Variables& vars, const LaunchGeometry& geometry, const CachedCompile& compile) const;
  KernelLaunch CandidateLaunch(const Compiled& compiled) const;
  void TimePipelineStages();
  SetupRequest MakeSetup() const;
  void StartWorker();
  WorkerProcess::Reply CallWorker(const nlohmann::json& request, double timeout_s);
  db::MeasurementRecord Measure(const Compiled& compiled, bool estimate_only);
  db::MeasurementRecord MeasureWithRetry(const Compiled& compiled, bool estimate_only, int kills);
  void TimeCloseCandidates(std::size_t first);
  double CandidateTimeoutS() const;
  void ConfirmLeaders();
  void MeasureHardware();
  bool ProfileBatch(const std::vector<HardwareWork>& works);
  void TakeHardwareReply(const nlohmann::json& reply, db::MeasurementRecord& record);
  bool ConfirmLeadersOnce();
  bool FastestAreConfirmed() const;
  std::vector<Leader> Fastest() const;
  std::vector<std::size_t> MeasuredHere(const std::vector<Leader>& leaders);

  const TemplateSpec& spec_;
  const SweepOptions& options_;
  db::Store& store_;
  SweepOutcome outcome_;
  DeviceLimits limits_;
  std::unique_ptr<CandidateRecords> records_;
  std::unique_ptr<CubinCache> cache_;         // the reference, on the main thread
  std::unique_ptr<ParallelCompiler> compiler_;  // the candidates, one slot per compile thread
  std::unique_ptr<WorkerProcess> worker_;
  std::int64_t gpu_id_ = 0, template_id_ = 0, sweep_id_ = 0;
  double best_ms_ = 0;
  std::vector<ParamValues> all_;           // every candidate, in enumeration order
  std::vector<bool> owned_;                // this node's share of all_ under --shard; empty: all
  std::set<std::string> stored_here_;      // params_json of the candidates stored for this very card
  std::vector<Evaluation> history_;        // stored before this run, then measured now
  std::map<std::string, int> stored_kills_;  // params_json -> worker kills of stored candidates to retry
  std::vector<Leader> stored_ok_;           // stored `ok` candidates, for the leaders of a resumed run
  std::vector<Leader> model_leaders_;       // ConfirmedLeaders of what the model's cards stored
  std::vector<Compiled> measured_compiled_;  // parallel to outcome_.measured
  std::size_t to_measure_ = 0;  // by this run, for the progress bar
  std::size_t failures_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  SweepClock time_;
};

void SweepRun::Prepare() {
  outcome_.gpu = RequireGpu(options_.gpu);
  outcome_.size = ParseProblemSize(spec_, options_.size_text);
  limits_ = LimitsFromGpu(options_.gpu);
  records_ = std::make_unique<CandidateRecords>(spec_, limits_, outcome_.size);
  const std::string cache_dir = options_.cache_dir.empty() ? DefaultCubinCacheDir() : options_.cache_dir;
  cache_ = std::make_unique<CubinCache>(cache_dir);
  compiler_ = std::make_unique<ParallelCompiler>(CompileThreads(), cache_dir, options_.worker_executable);
  const GpuInfo& g = outcome_.gpu;
  gpu_id_ = store_.EnsureGpu({g.uuid, g.name, g.cc_major, g.cc_minor, g.sm_count, g.memory_bytes, DriverVersion(),
                              RuntimeVersion(), g.sm_clock_mhz});
  template_id_ = store_.EnsureTemplate({spec_.name, spec_.hash, ""});
  db::SweepRecord sweep;
  sweep.command = options_.command_line;
  sweep.strategy = options_.strategy.name;
  sweep.budget = static_cast<std::int64_t>(options_.strategy.max_evaluations);
  sweep.size_key = outcome_.size.Key();
  sweep.status = "running";
  sweep.tool_version = kVersion;
  sweep.nvrtc_version = NvrtcVersion();
  sweep.started_at = db::NowUtc();
  sweep_id_ = store_.StartSweep(gpu_id_, template_id_, sweep);
}

// Brute force and random sampling do not look at results, so their whole order is known at once
// and every candidate can be compiled ahead of the GPU.
std::vector<std::size_t> SweepRun::PlannedOrder(SearchStrategy& strategy) const {
  return PlannedShare(strategy, history_, owned_, options_.shard, options_.shards);
}

int SweepRun::CompileThreads() const {
  return options_.compile_threads > 0 ? options_.compile_threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// On compile thread `slot`; counted as compile work of the sweep.
Compiled SweepRun::CompileOne(const ParamValues& params, int slot) {
  const auto working = time_.Time(SweepClock::Part::kCompileWork);
  Compiled compiled{params, {}, {}, {}};
  try {
    const Variables vars = MakeVariables(outcome_.size, params);
    compiled.geometry = EvaluateLaunch(spec_.launch, vars);
    PlanPipeline(spec_, vars);  // a host-side value out of range makes the candidate invalid
  } catch (const ExpressionError& e) {
    compiled.invalid_reason = e.what();
    return compiled;
  }
  const KernelResources resources{static_cast<int>(compiled.geometry.ThreadsPerBlock()), 0,
                                  static_cast<std::size_t>(compiled.geometry.shared_bytes)};
  compiled.invalid_reason = ComputeOccupancy(limits_, resources).invalid_reason;
  if (compiled.invalid_reason.empty()) compiled.compile = compiler_->Compile(slot, spec_, params, spec_.kernel, outcome_.gpu.Arch());
  return compiled;
}

// On the measuring thread, which waits for it: the GPU is idle meanwhile.
Compiled SweepRun::CompileNow(const ParamValues& params) {
  const auto compiling = time_.Time(SweepClock::Part::kCompile);
  return CompileOne(params, 0);
}

KernelLaunch SweepRun::MakeLaunch(const Variables& vars, const LaunchGeometry& geometry, const CachedCompile& compile) const {
  KernelLaunch launch{compile.cubin_path, compile.result.lowered_name, geometry, {}, spec_.symbols, {}};
  for (const ArgSpec& arg : spec_.args)
    launch.args.push_back(arg.is_buffer ? LaunchArg{arg.name, arg.type, 0} : LaunchArg{"", arg.type, Evaluate(arg.value, vars)});
  return launch;
}

// A candidate's launch on the whole problem, with its pipeline's run when the template has one.
KernelLaunch SweepRun::CandidateLaunch(const Compiled& compiled) const {
  const Variables vars = MakeVariables(outcome_.size, compiled.params);
  KernelLaunch launch = MakeLaunch(vars, compiled.geometry, compiled.compile);
  launch.pipeline = PlanPipeline(spec_, vars);
  return launch;
}

SetupRequest SweepRun::MakeSetup() const {
  const ParamValues params = ReferenceParams(spec_);
  const Variables vars = MakeVariables(outcome_.size, params);
  SetupRequest setup;
  setup.gpu = options_.gpu;
  setup.seed = 20261122;
  setup.atol = Evaluate(spec_.check.atol, vars);
  setup.rtol = Evaluate(spec_.check.rtol, vars);
  for (const ArgSpec& arg : spec_.args) {
    const auto expected = spec_.check.expected.find(arg.name);
    if (arg.is_buffer)
      setup.buffers.push_back({arg.name, arg.type, EvaluateInteger(arg.length, vars), arg.init, arg.output, arg.file,
                               expected == spec_.check.expected.end() ? "" : expected->second});
  }
  setup.reference.symbols = spec_.symbols;  // the worker keeps their sources' contents
  if (spec_.check.kernel.empty()) return setup;  // expected files are the whole check
  const CachedCompile reference = cache_->Compile(spec_, params, spec_.check.kernel, outcome_.gpu.Arch());
  if (!reference.result.ok)
    throw std::runtime_error("the reference kernel of " + spec_.name + " does not compile:\n" + reference.result.log);
  setup.reference = MakeLaunch(vars, EvaluateLaunch(spec_.check.launch, vars), reference);
  return setup;
}

void SweepRun::StartWorker() {
  const std::string exe = options_.worker_executable.empty() ? SelfExecutable() : options_.worker_executable;
  {
    const auto starting = time_.Time(SweepClock::Part::kWaiting);
    worker_ = std::make_unique<WorkerProcess>(exe, std::vector<std::string>{"__worker"});
  }
  nlohmann::json setup;
  {
    const auto compiling = time_.Time(SweepClock::Part::kCompile);  // the reference kernel
    setup = ToJson(MakeSetup());
  }
  const WorkerProcess::Reply reply = CallWorker(setup, kSetupTimeoutS);
  if (reply.outcome == WorkerProcess::Outcome::kInterrupted) return;
  if (reply.outcome != WorkerProcess::Outcome::kReplied || !reply.body.value("ok", false))
    throw std::runtime_error("the GPU worker could not set up " + spec_.name + " (buffers and reference): " +
                             (reply.body.is_object() ? reply.body.value("error", reply.detail) : reply.detail));
  // CUPTI's configuration takes a while to build: the worker builds it while the sweep times.
  if (options_.counters != CounterMode::kOff && !spec_.pipeline.enabled && outcome_.counters_unavailable.empty())
    CallWorker({{"op", "prepare_profiler"}, {"gpu", options_.gpu}}, kSetupTimeoutS);
}

// Every request to the worker goes through here, so that its time is accounted.
WorkerProcess::Reply SweepRun::CallWorker(const nlohmann::json& request, double timeout_s) {
  const auto start = SweepClock::Clock::now();
  WorkerProcess::Reply reply = worker_->Call(request, timeout_s, &g_sweep_interrupted);
  const bool replied = reply.outcome == WorkerProcess::Outcome::kReplied && reply.body.is_object();
  time_.AddWorkerCall(SweepClock::SecondsSince(start), replied ? reply.body.value(kWorkerSecondsKey, 0.0) : 0.0);
  return reply;
}

double SweepRun::CandidateTimeoutS() const {
  // Loading, checking and up to 200 samples of a candidate 20x slower than the best, with a floor.
  return std::max(options_.timeout_floor_s, 1.0 + best_ms_ * 1e-3 * 20 * 200);
}

db::MeasurementRecord SweepRun::Measure(const Compiled& compiled, bool estimate_only) {
  db::MeasurementRecord record = records_->Base(compiled);
  if (!record.status.empty()) return record;
  if (g_sweep_interrupted) {
    record.status = "interrupted";
    return record;
  }
  if (!worker_ || !worker_->Alive()) StartWorker();
  if (g_sweep_interrupted) {  // during the worker's start-up, which the interrupt ended
    record.status = "interrupted";
    return record;
  }
  MeasureRequest request;
  request.launch = CandidateLaunch(compiled);
  request.best_ms = best_ms_;
  request.estimate_only = estimate_only;
  const WorkerProcess::Reply reply = CallWorker(ToJson(request), CandidateTimeoutS());
  switch (reply.outcome) {
    case WorkerProcess::Outcome::kInterrupted: record.status = "interrupted"; return record;
    case WorkerProcess::Outcome::kTimedOut: record.status = "timeout"; record.reason = reply.detail; return record;
    case WorkerProcess::Outcome::kDied: record.status = "fault"; record.reason = reply.detail; return record;
    case WorkerProcess::Outcome::kReplied: break;
  }
  const nlohmann::json& body = reply.body;
  // The loaded kernel's own attributes are the authority on its resources.
  if (body.value("regs_per_thread", 0) > 0)
    records_->FillResources(record, compiled, body["regs_per_thread"], body.value("static_smem_bytes", 0LL));
  record.status = body.value("status", "launch_error");
  record.reason = body.value("reason", body.value("error", ""));
  if (record.status == "fault") worker_->Kill();  // it exits by itself; make sure before restarting
  if (record.status != "ok") return record;
  record.time_ms_median = body.at("time_ms_median");
  record.time_ms_min = body.at("time_ms_min");
  record.time_ms_max = body.at("time_ms_max");
  record.time_ms_spread = body.at("time_ms_spread");
  record.samples = body.at("samples");
  records_->FillPerformance(record);
  if (best_ms_ == 0 || record.time_ms_median < best_ms_) best_ms_ = record.time_ms_median;
  return record;
}

// A candidate that kills its worker is tried once more with a fresh one (the fault may have been
// the GPU's, not the kernel's). Each kill is committed before the retry, so that a crash of the
// tuner itself during the retry still counts it.
db::MeasurementRecord SweepRun::MeasureWithRetry(const Compiled& compiled, bool estimate_only, int kills) {
  for (;;) {
    db::MeasurementRecord record = Measure(compiled, estimate_only);
    // A worker killed by the interrupt is not the candidate's fault: nothing is counted or stored.
    if (g_sweep_interrupted) record.status = "interrupted";
    record.worker_kills = kills;  // kept when the retry passes: the earlier kill stays on record
    if (!db::KillsWorker(record.status)) {
      if (kills > 0 && record.status == "ok") record.reason = "passed after killing its worker once; " + record.reason;
      return record;
    }
    record.worker_kills = ++kills;
    if (kills >= db::kMaxWorkerKills) {
      record.reason += " (killed its worker " + std::to_string(kills) + " times; not tried again)";
      return record;
    }
    store_.AddMeasurement(sweep_id_, record);
  }
}

bool SweepRun::OutOfTime() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return options_.budget_seconds > 0 && elapsed > options_.budget_seconds;
}

void SweepRun::StartMeasuring() {
  StartWorker();
  if (g_sweep_interrupted) return;
  const auto copy = CallWorker({{"op", "copy_bandwidth"}, {"bytes", kCopyBytes}}, kSetupTimeoutS);
  if (copy.outcome == WorkerProcess::Outcome::kReplied) outcome_.copy_gbps = copy.body.value("gbps", 0.0);
  store_.SetCopyBandwidth(sweep_id_, outcome_.copy_gbps);
}

// Returns false when the sweep was interrupted and nothing was stored.
bool SweepRun::MeasureAndStore(std::size_t index, const Compiled& compiled, bool estimate_only) {
  if (!worker_) StartMeasuring();
  const auto kills = stored_kills_.find(ParamsJson(all_[index]));
  db::MeasurementRecord record = MeasureWithRetry(compiled, estimate_only, kills == stored_kills_.end() ? 0 : kills->second);
  if (record.status == "interrupted" || g_sweep_interrupted) return false;
  store_.AddMeasurement(sweep_id_, record);
  failures_ += record.status != "ok";
  history_.push_back({index, record.status == "ok", record.time_ms_median});
  outcome_.measured.push_back(std::move(record));
  measured_compiled_.push_back(compiled);
  ReportProgress();
  return true;
}

void SweepRun::ReportProgress() const {
  if (options_.progress) options_.progress->Update(options_.gpu, to_measure_, outcome_.measured.size(), failures_, best_ms_);
}

void SweepRun::MeasureInOrder(const std::vector<std::size_t>& order) {
  std::vector<Compiled> compiled(order.size());
  time_.SetCompileThreads(CompileThreads());
  auto pool = std::make_unique<CompilePool>(order.size(), CompileThreads(),
                                            [&](std::size_t i, int slot) { compiled[i] = CompileOne(all_[order[i]], slot); });
  if (!order.empty()) StartMeasuring();  // the worker starts while the first candidates compile
  for (std::size_t i = 0; i < order.size() && !g_sweep_interrupted && !OutOfTime(); ++i) {
    {
      const auto compiling = time_.Time(SweepClock::Part::kCompile);  // the GPU is ready before the compile threads
      pool->WaitFor(i);
    }
    if (!MeasureAndStore(order[i], compiled[i], true)) break;
  }
  const auto compiling = time_.Time(SweepClock::Part::kCompile);  // stopped early: the compiles under way finish
  pool.reset();
}

// The second pass of a planned sweep: every candidate has a one-launch estimate; only those close
// to the best (or so short that timing them costs nothing) are timed properly. The others cannot
// win, and a far slower kernel would spend most of the sweep's GPU time.
void SweepRun::TimeCloseCandidates(std::size_t first) {
  constexpr double kClose = 1.5;
  constexpr double kCheapMs = 1.0;
  double best = 0;
  for (std::size_t k = first; k < outcome_.measured.size(); ++k)
    if (outcome_.measured[k].status == "ok" && (best == 0 || outcome_.measured[k].time_ms_median < best))
      best = outcome_.measured[k].time_ms_median;
  for (std::size_t k = first; k < outcome_.measured.size() && !g_sweep_interrupted && !OutOfTime(); ++k) {
    const db::MeasurementRecord& estimate = outcome_.measured[k];
    if (estimate.status != "ok" || (estimate.time_ms_median > kClose * best && estimate.time_ms_median > kCheapMs)) continue;
    db::MeasurementRecord record = MeasureWithRetry(measured_compiled_[k], false, estimate.worker_kills);
    if (record.status == "interrupted") break;
    store_.AddMeasurement(sweep_id_, record);
    outcome_.measured[k] = std::move(record);
  }
}

// Optimisers choose from the results so far: one candidate at a time, compiled when chosen.
void SweepRun::MeasureGuided(SearchStrategy& strategy) {
  while (!g_sweep_interrupted && !OutOfTime()) {
    const auto next = strategy.Next(history_);
    if (!next || !MeasureAndStore(*next, CompileNow(all_[*next]), false)) break;
  }
}

// What is stored for the model is not measured again, except candidates that killed their worker
// only once: cards of one model share their candidates (--gpus, or --shard and a merge).
void SweepRun::ResumeFromStore() {
  const std::vector<db::MeasurementRecord> model = store_.ModelMeasurements(gpu_id_, template_id_, outcome_.size.Key());
  const std::vector<db::MeasurementRecord> here = store_.Measurements(gpu_id_, template_id_, outcome_.size.Key());
  history_ = StoredEvaluations(all_, model);
  for (const db::MeasurementRecord& r : model)
    if (db::NeedsAnotherTry(r)) stored_kills_[CandidateIdentity(r.params_json)] = r.worker_kills;
  // This card's own time of a candidate first: Fastest() keeps the first time it meets.
  for (const std::vector<db::MeasurementRecord>* rows : {&here, &model})
    for (const db::MeasurementRecord& r : *rows)
      if (r.status == "ok") stored_ok_.push_back({CandidateIdentity(r.params_json), r.time_ms_median});
  for (const db::MeasurementRecord& r : here) stored_here_.insert(CandidateIdentity(r.params_json));
  model_leaders_ = ConfirmedLeaders(model, kLeaders);
}

SweepOutcome SweepRun::Run() {
  Prepare();
  all_ = EnumerateCandidates(spec_, outcome_.size);
  outcome_.candidates = all_.size();
  if (options_.node_shard.count > 1) {
    owned_ = ShardMembers(all_, options_.node_shard);
    outcome_.shard = options_.node_shard.Text();
  }
  outcome_.shard_candidates = owned_.empty() ? all_.size() : static_cast<std::size_t>(std::count(owned_.begin(), owned_.end(), true));
  if (!options_.force) ResumeFromStore();
  outcome_.already_stored = history_.size();
  StrategyOptions strategy_options = options_.strategy;  // --budget counts new evaluations only
  if (strategy_options.max_evaluations) strategy_options.max_evaluations += history_.size();
  const auto strategy = MakeStrategy(strategy_options, all_, spec_.params);
  const bool planned = options_.strategy.name == "brute_force" || options_.strategy.name == "random";
  if (planned) {
    const std::vector<std::size_t> order = PlannedOrder(*strategy);
    to_measure_ = order.size();
    ReportProgress();
    MeasureInOrder(order);
    TimeCloseCandidates(0);
  } else {
    const std::size_t budget = options_.strategy.max_evaluations, missing = all_.size() - history_.size();
    to_measure_ = budget ? std::min(budget, missing) : missing;
    ReportProgress();
    MeasureGuided(*strategy);
  }
  if (!g_sweep_interrupted) ConfirmLeaders();
  if (!g_sweep_interrupted && spec_.pipeline.enabled) TimePipelineStages();
  // A pipeline's time is host memory to host memory: one kernel launch's counters and energy would not explain it.
  if (!g_sweep_interrupted && !spec_.pipeline.enabled) MeasureHardware();
  outcome_.interrupted = g_sweep_interrupted;
  store_.FinishSweep(sweep_id_, outcome_.interrupted ? "interrupted" : "done");
  outcome_.stored = store_.Measurements(gpu_id_, template_id_, outcome_.size.Key());
  {
    const auto stopping = time_.Time(SweepClock::Part::kWaiting);  // the worker ends with the sweep
    worker_.reset();
  }
  outcome_.time = time_.Split();
  return outcome_;
}

// For a pipeline template, the winner of this run's copy in, kernel and copy out, each alone on the
// whole problem: the bound that its overlap approaches (explicit copies only).
void SweepRun::TimePipelineStages() {
  const db::MeasurementRecord* best = nullptr;
  std::size_t index = 0;
  for (std::size_t k = 0; k < outcome_.measured.size(); ++k) {
    const db::MeasurementRecord& r = outcome_.measured[k];
    if (r.status == "ok" && (!best || r.time_ms_median < best->time_ms_median)) best = &outcome_.measured[index = k];
  }
  if (!best) return;
  const KernelLaunch launch = CandidateLaunch(measured_compiled_[index]);
  if (IsManaged(launch.pipeline.memory)) return;
  if (!worker_ || !worker_->Alive()) StartWorker();
  const auto reply = CallWorker({{"op", "pipeline_stages"}, {"launch", ToJson(launch)}}, CandidateTimeoutS() * 3);
  if (reply.outcome != WorkerProcess::Outcome::kReplied || !reply.body.value("ok", false)) return;
  outcome_.pipeline_stages = {{"h2d_ms", reply.body.at("h2d_ms")}, {"kernel_ms", reply.body.at("kernel_ms")},
                              {"d2h_ms", reply.body.at("d2h_ms")}, {"pipeline", reply.body.at("pipeline")},
                              {"params", nlohmann::json::parse(best->params_json)}, {"time_ms", best->time_ms_median}};
}

// The fastest `ok` candidates of this run and of the store (a resumed run's leaders may have been
// measured by the interrupted one), at most kLeaders.
std::vector<Leader> SweepRun::Fastest() const {
  std::vector<Leader> leaders;
  for (const db::MeasurementRecord& r : outcome_.measured)
    if (r.status == "ok") leaders.push_back({r.params_json, r.time_ms_median});
  for (const Leader& stored : stored_ok_)  // after this run's: a candidate's newest time counts
    if (std::none_of(leaders.begin(), leaders.end(), [&](const Leader& l) { return l.params_json == stored.params_json; }))
      leaders.push_back(stored);
  std::stable_sort(leaders.begin(), leaders.end(), [](const Leader& a, const Leader& b) { return a.time_ms < b.time_ms; });
  if (leaders.size() > kLeaders) leaders.resize(kLeaders);
  return leaders;
}

// Indices into outcome_.measured of these leaders; one not measured by this run (stored, or
// measured on another card of the model) is checked and timed here first.
std::vector<std::size_t> SweepRun::MeasuredHere(const std::vector<Leader>& leaders) {
  std::vector<std::size_t> indices;
  for (const Leader& leader : leaders) {
    const auto measured = std::find_if(outcome_.measured.begin(), outcome_.measured.end(),
                                       [&](const db::MeasurementRecord& r) { return r.params_json == leader.params_json; });
    if (measured != outcome_.measured.end()) {
      if (measured->status == "ok") indices.push_back(static_cast<std::size_t>(measured - outcome_.measured.begin()));
      continue;
    }
    const auto candidate = std::find_if(all_.begin(), all_.end(), [&](const ParamValues& p) { return ParamsJson(p) == leader.params_json; });
    if (candidate == all_.end()) continue;
    const std::size_t index = static_cast<std::size_t>(candidate - all_.begin());
    ++to_measure_;
    if (!MeasureAndStore(index, CompileNow(*candidate), false)) break;
    if (outcome_.measured.back().status == "ok") indices.push_back(outcome_.measured.size() - 1);
  }
  return indices;
}

// The few fastest are timed again in turns (A B C A B C ...), so that a drift of clocks or a
// neighbour on the GPU during the sweep cannot decide the winner. A candidate timed alone may then
// be faster than a leader's time in turns: the new fastest are timed in turns again, a few times
// at most (once with several cards, which hand in their leaders together).
void SweepRun::ConfirmLeaders() {
  constexpr int kMaxConfirmations = 3;
  for (int i = 0; i < kMaxConfirmations; ++i)
    if (!ConfirmLeadersOnce() || options_.leader_exchange || FastestAreConfirmed()) return;
}

bool SweepRun::FastestAreConfirmed() const {
  for (const Leader& leader : Fastest()) {
    const auto record = std::find_if(outcome_.measured.begin(), outcome_.measured.end(),
                                     [&](const db::MeasurementRecord& r) { return r.params_json == leader.params_json; });
    if (record == outcome_.measured.end() || record->reason.rfind(kConfirmedReasonPrefix, 0) != 0) return false;
  }
  return true;
}

// Cards of one model differ by a few percent, so each of them times the model's leaders, not only
// its own. When this run measured nothing new, only the model's confirmed leaders are timed, and
// only when one of them was never measured on this card: after a merge of shards, the next run on
// a card of the model times the leaders that other nodes confirmed. Whether leaders were timed.
bool SweepRun::ConfirmLeadersOnce() {
  constexpr int kRounds = 10;
  std::vector<Leader> leaders = Fastest();
  if (outcome_.measured.empty()) {
    const bool measured_elsewhere = std::any_of(model_leaders_.begin(), model_leaders_.end(),
                                                [&](const Leader& l) { return !stored_here_.count(l.params_json); });
    leaders = measured_elsewhere ? model_leaders_ : std::vector<Leader>{};
  }
  if (options_.leader_exchange) {  // every card hands in, even none
    const auto waiting = time_.Time(SweepClock::Part::kWaiting);  // for the other GPUs' sweeps
    leaders = options_.leader_exchange(leaders);
  }
  if (leaders.size() > kLeaders) leaders.resize(kLeaders);
  if (leaders.size() < 2) return false;  // nothing to compare: a lone leader is not measured again
  const std::vector<std::size_t> indices = MeasuredHere(leaders);
  if (indices.size() < 2 || g_sweep_interrupted) return false;
  if (!worker_ || !worker_->Alive()) StartWorker();
  // A card may have sat idle while the others finished their shares.
  if (options_.leader_exchange) CallWorker({{"op", "warm_up"}}, kSetupTimeoutS);
  nlohmann::json launches = nlohmann::json::array();
  for (std::size_t k : indices) launches.push_back(ToJson(CandidateLaunch(measured_compiled_[k])));
  const auto reply = CallWorker({{"op", "interleave"}, {"launches", launches}, {"rounds", kRounds}}, CandidateTimeoutS() * kLeaders);
  if (reply.outcome != WorkerProcess::Outcome::kReplied || !reply.body.value("ok", false)) return false;
  for (std::size_t j = 0; j < indices.size(); ++j) {
    db::MeasurementRecord& record = outcome_.measured[indices[j]];
    // The median and spread now come from the rounds in turns alone; its own samples are kept in words.
    if (record.reason.rfind(kConfirmedReasonPrefix, 0) != 0)
      record.reason = std::string(kConfirmedReasonPrefix) + " median of " + std::to_string(kRounds) +
                      " samples timed in turns with the other leaders (after " + std::to_string(record.samples) +
                      " of its own)";
    record.time_ms_median = reply.body["medians"][j];
    record.time_ms_spread = reply.body["spreads"][j];
    record.time_ms_min = reply.body["mins"][j];
    record.time_ms_max = reply.body["maxs"][j];
    record.samples = kRounds;
    records_->FillPerformance(record);
    store_.AddMeasurement(sweep_id_, record);
  }
  return true;
}

// Counters and energy of the candidates PlanHardware chooses, after every timing (never inside a
// sample), in batches: one request profiles many candidates in one CUPTI session and chains their
// energy windows. A batch that fails (a fault or a hang) is tried again one candidate at a time, so
// that it costs only the candidate that caused it. What cannot be measured (no CUPTI, no permission,
// no energy counter) is said once and the rest goes on.
void SweepRun::MeasureHardware() {
  std::vector<std::string> leaders;
  for (const Leader& leader : Fastest()) leaders.push_back(leader.params_json);
  const std::vector<HardwareWork> plan = PlanHardware(outcome_.measured, leaders, options_.counters, options_.objective);
  if (plan.empty()) return;
  const auto start = SweepClock::Clock::now();
  outcome_.hardware_pass = {{"requests", 0}, {"counters", 0}, {"energy", 0}, {"worker_ms", nlohmann::json::object()}};
  constexpr std::size_t kBatch = 64;  // candidates per request: CUPTI's counter image grows with its ranges
  for (std::size_t first = 0; first < plan.size() && !g_sweep_interrupted; first += kBatch) {
    const std::vector<HardwareWork> batch(plan.begin() + first, plan.begin() + std::min(plan.size(), first + kBatch));
    if (ProfileBatch(batch) || batch.size() == 1) continue;
    for (const HardwareWork& work : batch)
      if (!g_sweep_interrupted) ProfileBatch({work});
  }
  outcome_.hardware_pass["wall_ms"] = SweepClock::SecondsSince(start) * 1e3;
}

bool SweepRun::ProfileBatch(const std::vector<HardwareWork>& works) {
  ProfileRequest request{options_.gpu, outcome_.gpu.uuid, {}};
  std::vector<std::size_t> indices;
  double timeout_s = 0;
  for (const HardwareWork& work : works) {
    const bool counters = work.counters && outcome_.counters_unavailable.empty();
    const bool energy = work.energy && outcome_.energy_unavailable.empty();
    if (!counters && !energy) continue;
    const db::MeasurementRecord& record = outcome_.measured[work.index];
    request.candidates.push_back({CandidateLaunch(measured_compiled_[work.index]), counters, energy, record.time_ms_median});
    indices.push_back(work.index);
    constexpr double kEnergyRunS = 15;  // the energy window is 10 s at most, plus the counter's alignment
    timeout_s += CandidateTimeoutS() + (energy ? kEnergyRunS : 0);
  }
  if (request.candidates.empty()) return true;
  if (!worker_ || !worker_->Alive()) StartWorker();
  const auto reply = CallWorker(ToJson(request), timeout_s);
  if (reply.outcome != WorkerProcess::Outcome::kReplied || !reply.body.value("ok", false)) {
    worker_->Kill();  // a fault or a hang while profiling: the next request gets a fresh worker
    return false;
  }
  nlohmann::json& pass = outcome_.hardware_pass;
  pass["requests"] = pass["requests"].get<int>() + 1;
  const nlohmann::json timing = reply.body.value("timing_ms", nlohmann::json::object());  // kept alive for items()
  for (const auto& [part, ms] : timing.items()) pass["worker_ms"][part] = pass["worker_ms"].value(part, 0.0) + ms.get<double>();
  for (std::size_t j = 0; j < indices.size(); ++j) {
    db::MeasurementRecord& record = outcome_.measured[indices[j]];
    const nlohmann::json& result = reply.body.at("results").at(j);
    TakeHardwareReply(result, record);
    pass["counters"] = pass["counters"].get<int>() + (result.contains("counters") ? 1 : 0);
    pass["energy"] = pass["energy"].get<int>() + (result.contains("energy") ? 1 : 0);
    store_.AddMeasurement(sweep_id_, record);
  }
  return true;
}

void SweepRun::TakeHardwareReply(const nlohmann::json& reply, db::MeasurementRecord& record) {
  if (reply.contains("counters")) record.counters_json = reply["counters"].dump();
  if (reply.contains("energy")) {
    record.energy_j = reply["energy"].at("joules_per_launch");
    record.power_w = reply["energy"].at("power_w");
    record.energy_launch_ms = reply["energy"].at("launch_ms");
    record.perf_per_joule = db::PerfPerJoule(record);
  }
  for (auto [key, note] : {std::pair{"counters_unavailable", &outcome_.counters_unavailable},
                           {"energy_unavailable", &outcome_.energy_unavailable}})
    if (reply.contains(key) && note->empty()) {
      *note = reply[key];
      std::cerr << "tuner tune: " << (note == &outcome_.counters_unavailable ? "hardware counters" : "energy")
                << " unavailable on GPU " << options_.gpu << ", continuing without: " << *note << "\n";
    }
}

}  // namespace

SweepOutcome RunSweep(const TemplateSpec& spec, const SweepOptions& options, db::Store& store) {
  return SweepRun(spec, options, store).Run();
}

std::vector<Leader> ConfirmedLeaders(const std::vector<db::MeasurementRecord>& model, std::size_t count) {
  std::map<std::string, double> fastest;
  for (const db::MeasurementRecord& r : model) {
    if (r.status != "ok" || r.reason.rfind(kConfirmedReasonPrefix, 0) != 0) continue;
    const std::string params = CandidateIdentity(r.params_json);
    const auto known = fastest.find(params);
    if (known == fastest.end() || r.time_ms_median < known->second) fastest[params] = r.time_ms_median;
  }
  std::vector<Leader> leaders;
  for (const auto& [params, time_ms] : fastest) leaders.push_back({params, time_ms});
  std::stable_sort(leaders.begin(), leaders.end(), [](const Leader& a, const Leader& b) { return a.time_ms < b.time_ms; });
  if (leaders.size() > count) leaders.resize(count);
  return leaders;
}

std::optional<db::MeasurementRecord> FastestOk(const std::vector<db::MeasurementRecord>& records) {
  std::optional<db::MeasurementRecord> best;
  for (const db::MeasurementRecord& r : records)
    if (r.status == "ok" && (!best || r.time_ms_median < best->time_ms_median)) best = r;
  return best;
}

}  // namespace tuner
