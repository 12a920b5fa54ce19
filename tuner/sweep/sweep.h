// One tuning sweep of one template on one GPU: enumerate, prune, compile in parallel, measure in
// a worker process, and commit each result to the store as it arrives.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/progress_bar.h"
#include "cuda/device.h"
#include "db/query/records.h"
#include "db/query/store.h"
#include "measure/worker_protocol.h"
#include "search/search_strategy.h"
#include "sweep/hardware_pass.h"
#include "sweep/hardware_plan.h"
#include "sweep/leaders.h"
#include "sweep/shard.h"
#include "sweep/strategy_choice.h"
#include "sweep/sweep_stop.h"
#include "sweep/sweep_target.h"
#include "sweep/sweep_time.h"
#include "sweep/worker_client.h"
#include "template/problem_size.h"

namespace tuner {

struct SweepOptions {
  bool force = false;                               // measure candidates already stored again
  std::string worker_executable;                    // the tuner binary; "" for this process's own
  std::string cache_dir;                            // compiled kernels; "" for the default
  std::string command_line;                         // stored with the sweep
  double timeout_floor_s = 10;                      // a candidate's deadline until one answered
  double reference_timeout_s = kReferenceTimeoutS;  // the reference kernel's deadline
  bool tighten_deadlines = true;                    // then shorter where kernels take milliseconds (false: a floor)
  int compile_threads = 0;                          // 0: one per core
  ProgressBar* progress = nullptr;                  // shared by the sweeps of one command; null: no bar
  StrategyOptions strategy;                         // which candidates, in which order; max_evaluations is the budget;
                                                    // name "auto": chosen by the sweep (sweep/strategy_choice.h)
  std::string strategy_reason;                      // why the command chose strategy.name ("": the user named it)
  bool warm_start = true;                           // a guided strategy starts from the template's other stored sweeps
  double budget_seconds = 0;                        // stop measuring after this long (0: no limit)
  std::size_t shard = 0;                            // of several GPUs of one model, this one measures the candidates
  std::size_t shards = 1;                           // whose index % shards == shard (planned strategies only)
  LeaderExchange leader_exchange;                   // set when shards > 1
  Shard node_shard;  // of several nodes (--shard K/N), this one's share (planned strategies only)
  CounterMode counters = CounterMode::kWinner;     // which candidates get hardware counters after timing
  db::Objective objective = db::Objective::kTime;  // an energy objective measures every ok candidate's energy
  TimingMode timing = TimingMode::kIsolated;       // how every candidate is timed (template/timing_choice.h)
  int batch_launches = 0;  // back_to_back and graph: launches a sample (--launches-per-sample; 0: about 1 ms)
  std::shared_ptr<SweepStop> stop = std::make_shared<SweepStop>();  // shared by the sweeps of one command
};

// A pipeline template's winner of one run with each of its stages alone, timed in the same run.
struct PipelineStages {
  std::string params_json;
  double time_ms = 0;    // the pipeline's, from host memory to host memory
  std::string pipeline;  // its run: "4 streams, 16 chunks of 1048576, pinned, depth_first"
  StageTimes stages;     // on the whole problem and one stream
};

struct SweepOutcome {
  GpuInfo gpu;
  ProblemSize size;
  std::vector<db::MeasurementRecord> measured;  // this run, in order
  std::vector<db::MeasurementRecord> stored;    // everything stored for this GPU, version and size, of its mode
  TimingMode timing = TimingMode::kIsolated;
  ThrottleCount throttle;  // the samples discarded for throttling, and the NVML readings around them
  // By params_json, the launches each of this run's samples timed together (1 isolated, the batch
  // in back_to_back and graph; the rounds in turns over a candidate's own samples). Not stored.
  std::map<std::string, int> launches_per_sample;
  std::size_t candidates = 0;
  std::string shard;                 // "K/N" under --shard K/N with N > 1, else ""
  std::size_t shard_candidates = 0;  // of the candidates, this node's share (all of them without --shard)
  std::size_t already_stored = 0;
  StrategyChoice strategy;                        // the strategy that ran, and why
  double copy_gbps = 0;                           // device-to-device copy bandwidth measured in the same run
  std::optional<PipelineStages> pipeline_stages;  // pipeline templates only
  bool interrupted = false;                       // by Ctrl-C
  SweepTime time;                                 // where the sweep's wall time went
  std::string counters_unavailable;  // why no counters could be read ("" when they could, or were not asked for)
  std::string energy_unavailable;
  std::optional<HardwarePassCost> hardware_pass;  // none: no candidate got counters or energy
};

// Sweeps `target` on `gpu`, as found by the command (cuda/device.h) with its limits.
SweepOutcome RunSweep(const SweepTarget& target, const GpuInfo& gpu, const SweepOptions& options, db::Store& store);

}  // namespace tuner
