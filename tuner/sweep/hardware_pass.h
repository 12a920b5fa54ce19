// Counters and energy of the candidates PlanHardware chooses, after every timing (never inside a
// sample), in batches: one request profiles many candidates in one CUPTI session and chains their
// energy windows. A batch that fails (a fault, a hang or an error) is tried again one candidate at a
// time, so that it costs only the candidate that caused it; each failure is said with its reason. What cannot be measured (no CUPTI, no
// permission, no energy counter) is said once and the rest goes on.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sweep/hardware_plan.h"

namespace tuner {

struct ProfileResult;
class CandidateMeasurer;
class CandidatePipeline;
class SweepLedger;
class SweepStop;
class WorkerClient;

// Why counters or energy could not be read ("" when they could, or were not asked for).
struct HardwareNotes {
  std::string counters_unavailable;
  std::string energy_unavailable;
};

// What the pass cost: its wall time, its requests, how many candidates got counters and energy, and
// where the worker's time went (the profile replies' timing_ms, summed).
struct HardwarePassCost {
  double wall_ms = 0;
  int requests = 0;
  int counters = 0;
  int energy = 0;
  std::map<std::string, double> worker_ms;
};

class HardwarePass {
 public:
  // `gpu` names the GPU in what is said.
  HardwarePass(SweepLedger& ledger, WorkerClient& worker, const CandidatePipeline& pipeline,
               const CandidateMeasurer& measurer, const SweepStop& stop, int gpu)
      : ledger_(ledger), worker_(worker), pipeline_(pipeline), measurer_(measurer), stop_(stop), gpu_(gpu) {}

  // Adds counters and energy to the ledger's records of the candidates the plan chooses; none when
  // it chooses none.
  std::optional<HardwarePassCost> Run(const std::vector<std::string>& leader_params, CounterMode mode,
                                      db::Objective objective);
  const HardwareNotes& notes() const { return notes_; }

 private:
  bool ProfileBatch(const std::vector<HardwareWork>& works);
  void Take(const ProfileResult& result, db::MeasurementRecord& record);
  void Note(const std::string& why, const char* what, std::string& note) const;
  void Failed(const std::vector<std::size_t>& entries, const std::string& why) const;

  SweepLedger& ledger_;
  WorkerClient& worker_;
  const CandidatePipeline& pipeline_;
  const CandidateMeasurer& measurer_;
  const SweepStop& stop_;
  int gpu_;
  HardwareNotes notes_;
  HardwarePassCost cost_;
};

}  // namespace tuner
