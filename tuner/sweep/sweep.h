// One tuning sweep of one template on one GPU: enumerate, prune, compile in parallel, measure in
// a worker process, and commit each result to the store as it arrives.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/store.h"
#include "cuda/device.h"
#include "sweep/hardware_plan.h"
#include "template/problem_size.h"
#include "common/progress_bar.h"
#include "search/search_strategy.h"
#include "sweep/shard.h"
#include "sweep/sweep_time.h"
#include "template/template_spec.h"

namespace tuner {

// A candidate among the fastest of a sweep.
struct Leader {
  std::string params_json;
  double time_ms = 0;
};

// For sweeps on several GPUs of one model: takes this sweep's leaders, waits until every sweep of
// the model has handed in its own (or the command is interrupted) and returns all of them, fastest
// first, so that each card times the model's leaders in turns, not only its own.
using LeaderExchange = std::function<std::vector<Leader>(const std::vector<Leader>& own)>;

struct SweepOptions {
  int gpu = 0;
  std::string size_text;          // --size, "" for the template's defaults
  bool force = false;             // measure candidates already stored again
  std::string worker_executable;  // the tuner binary; "" for this process's own
  std::string cache_dir;          // compiled kernels; "" for the default
  std::string command_line;       // stored with the sweep
  double timeout_floor_s = 10;    // a candidate's deadline is never shorter
  int compile_threads = 0;        // 0: one per core
  ProgressBar* progress = nullptr;  // shared by the sweeps of one command; null: no bar
  StrategyOptions strategy;       // which candidates, in which order; max_evaluations is the budget
  double budget_seconds = 0;      // stop measuring after this long (0: no limit)
  std::size_t shard = 0;          // of several GPUs of one model, this one measures the candidates
  std::size_t shards = 1;         // whose index % shards == shard (planned strategies only)
  LeaderExchange leader_exchange;  // set when shards > 1
  Shard node_shard;                // of several nodes (--shard K/N), this one's share (planned strategies only)
  CounterMode counters = CounterMode::kLeaders;   // which candidates get hardware counters after timing
  db::Objective objective = db::Objective::kTime;  // an energy objective measures every ok candidate's energy
};

struct SweepOutcome {
  GpuInfo gpu;
  ProblemSize size;
  std::vector<db::MeasurementRecord> measured;  // this run, in order
  std::vector<db::MeasurementRecord> stored;    // everything stored for this GPU, version and size
  std::size_t candidates = 0;
  std::string shard;                 // "K/N" under --shard K/N with N > 1, else ""
  std::size_t shard_candidates = 0;  // of the candidates, this node's share (all of them without --shard)
  std::size_t already_stored = 0;
  double copy_gbps = 0;  // device-to-device copy bandwidth measured in the same run
  // Pipeline templates: the winner's stages each alone, same run ({"h2d_ms", "kernel_ms", "d2h_ms",
  // "pipeline", "params", "time_ms"}); null otherwise.
  nlohmann::json pipeline_stages;
  bool interrupted = false;
  SweepTime time;  // where the sweep's wall time went
  std::string counters_unavailable;  // why no counters could be read ("" when they could, or were not asked for)
  std::string energy_unavailable;
  // What the counters and energy pass after the timing cost: {"wall_ms", "requests", "counters",
  // "energy", "worker_ms": {"counters_setup", "counters_enable", "counters", "energy"}} (null: no pass).
  nlohmann::json hardware_pass;
};

// Set from a SIGINT handler: the sweep stops after killing the worker, without storing the
// candidate in flight.
extern std::atomic<bool> g_sweep_interrupted;  // lock-free, so a signal handler may set it

SweepOutcome RunSweep(const TemplateSpec& spec, const SweepOptions& options, db::Store& store);

// The leaders of a model as its cards confirmed them (records with kConfirmedReasonPrefix): the
// `count` fastest such candidates, each at its best card's time. Each card or shard confirms its own
// fastest, so the model's true fastest are among them: the leaders the next run on one card of the
// model times when it never measured one of them (after a merge of shards).
std::vector<Leader> ConfirmedLeaders(const std::vector<db::MeasurementRecord>& model, std::size_t count);

// The fastest `ok` record, if any.
std::optional<db::MeasurementRecord> FastestOk(const std::vector<db::MeasurementRecord>& records);

}  // namespace tuner
