#include "sweep/hardware_pass.h"

#include <algorithm>
#include <iostream>

#include "db/objective.h"
#include "db/speed_of_light.h"
#include "reports/report_format.h"
#include "sweep/candidate_measurer.h"
#include "sweep/sweep_ledger.h"

namespace tuner {

std::optional<HardwarePassCost> HardwarePass::Run(const std::vector<std::string>& leader_params, CounterMode mode,
                                                  db::Objective objective) {
  const std::vector<HardwareWork> plan = PlanHardware(ledger_.records(), leader_params, mode, objective);
  if (plan.empty()) return std::nullopt;
  const auto start = SweepClock::Clock::now();
  cost_ = HardwarePassCost{};
  constexpr std::size_t kBatch = 64;  // candidates per request: CUPTI's counter image grows with its ranges
  for (std::size_t first = 0; first < plan.size() && !stop_.Requested(); first += kBatch) {
    const std::vector<HardwareWork> batch(plan.begin() + first, plan.begin() + std::min(plan.size(), first + kBatch));
    if (ProfileBatch(batch) || batch.size() == 1) continue;
    for (const HardwareWork& work : batch)
      if (!stop_.Requested()) ProfileBatch({work});
  }
  cost_.wall_ms = SweepClock::SecondsSince(start) * 1e3;
  return cost_;
}

// Whether the worker profiled the batch.
bool HardwarePass::ProfileBatch(const std::vector<HardwareWork>& works) {
  ProfileRequest request;
  std::vector<std::size_t> entries;
  double timeout_s = 0;
  for (const HardwareWork& work : works) {
    const bool counters = work.counters && notes_.counters_unavailable.empty();
    const bool energy = work.energy && notes_.energy_unavailable.empty();
    if (!counters && !energy) continue;
    request.candidates.push_back({pipeline_.Launch(ledger_.compiled(work.index)), counters, energy,
                                  ledger_.records()[work.index].time_ms_median});
    entries.push_back(work.index);
    constexpr double kEnergyRunS = 15;  // the energy window is 10 s at most, plus the counter's alignment
    timeout_s += measurer_.CandidateTimeoutS() + (energy ? kEnergyRunS : 0);
  }
  if (request.candidates.empty()) return true;
  const WorkerAnswer<ProfileReply> answer = worker_.Call(request, timeout_s);
  if (!answer.body || answer.body->results.size() != entries.size()) {
    worker_.Kill();          // a fault or a hang while profiling: the next request gets a fresh worker
    if (!stop_.Requested())  // a stopped sweep's request was not a failure
      Failed(entries, answer.body ? "the worker answered for another number of candidates" : answer.failure);
    return false;
  }
  ++cost_.requests;
  for (const auto& [part, ms] : answer.body->timing_ms) cost_.worker_ms[part] += ms;
  for (std::size_t j = 0; j < entries.size(); ++j) {
    const ProfileResult& result = answer.body->results[j];
    db::MeasurementRecord record = ledger_.records()[entries[j]];
    Take(result, record);
    cost_.counters += !result.counters_json.empty();
    cost_.energy += result.energy.has_value();
    ledger_.Replace(entries[j], std::move(record));
  }
  return true;
}

void HardwarePass::Take(const ProfileResult& result, db::MeasurementRecord& record) {
  if (!result.counters_json.empty())
    record.counters_json = db::OverTimedLaunch(result.counters_json, record.time_ms_median);
  if (result.energy) {
    record.energy_j = result.energy->joules_per_launch;
    record.power_w = result.energy->power_w;
    record.energy_launch_ms = result.energy->launch_ms;
    record.perf_per_joule = db::PerfPerJoule(record);
  }
  Note(result.counters_unavailable, "hardware counters", notes_.counters_unavailable);
  Note(result.energy_unavailable, "energy", notes_.energy_unavailable);
}

// Said for every failed request, so that no candidate loses its counters without a word.
void HardwarePass::Failed(const std::vector<std::size_t>& entries, const std::string& why) const {
  std::cerr << "tuner tune: counters and energy of "
            << (entries.size() == 1 ? report::ParamsText(ledger_.records()[entries[0]].params_json)
                                    : std::to_string(entries.size()) + " candidates")
            << " failed on GPU " << gpu_ << (entries.size() == 1 ? "" : ", trying them one at a time") << ": " << why
            << "\n";
}

// Said once per sweep.
void HardwarePass::Note(const std::string& why, const char* what, std::string& note) const {
  if (why.empty() || !note.empty()) return;
  note = why;
  std::cerr << "tuner tune: " << what << " unavailable on GPU " << gpu_ << ", continuing without: " << why << "\n";
}

}  // namespace tuner
