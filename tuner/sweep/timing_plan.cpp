#include "sweep/timing_plan.h"

#include <algorithm>

#include "db/objective.h"
#include "sweep/leader_summary.h"

namespace tuner {

namespace {

constexpr int kRounds = 10;  // of the leaders in turns

}  // namespace

std::vector<std::size_t> CloseToBest(const std::vector<db::MeasurementRecord>& estimates) {
  constexpr double kClose = 1.5;
  constexpr double kCheapMs = 1.0;
  const std::optional<db::MeasurementRecord> fastest = db::BestBy(estimates, db::Objective::kTime);
  const double best = fastest ? fastest->time_ms_median : 0;
  std::vector<std::size_t> close;
  for (std::size_t k = 0; k < estimates.size(); ++k) {
    const db::MeasurementRecord& r = estimates[k];
    if (IsOk(r.status) && (r.time_ms_median <= kClose * best || r.time_ms_median <= kCheapMs)) close.push_back(k);
  }
  return close;
}

std::string ConfirmedReason(int rounds, int own_samples) {
  return std::string(kConfirmedReasonPrefix) + " median of " + std::to_string(rounds) +
         " samples timed in turns with the other leaders (after " + std::to_string(own_samples) + " of its own)";
}

void TimingPlan::TimeCloseCandidates(const std::function<bool()>& out_of_time) {
  for (std::size_t k : CloseToBest(parts_.ledger.records())) {
    if (parts_.stop.Requested() || out_of_time()) return;
    std::optional<db::MeasurementRecord> record =
        parts_.measurer.Measure(parts_.ledger.compiled(k), false, parts_.ledger.records()[k].worker_kills);
    if (!record) return;
    parts_.ledger.Replace(k, std::move(*record));
  }
}

void TimingPlan::ConfirmLeaders() {
  constexpr int kMaxConfirmations = 3;
  for (int i = 0; i < kMaxConfirmations; ++i)
    if (!ConfirmLeadersOnce() || parts_.exchange || FastestAreConfirmed()) return;
}

// Cards of one model differ by a few percent, so each of them times the model's leaders, not only
// its own. When this run measured nothing new, only the model's confirmed leaders are timed, and
// only when one of them was never measured on this card: after a merge of shards, the next run on
// a card of the model times the leaders that other nodes confirmed.
std::vector<Leader> TimingPlan::LeadersToTime() const {
  const StoredCandidates& stored = parts_.stored;
  if (!parts_.ledger.records().empty()) return LeadersInTurns(parts_.ledger.records(), stored.ok);
  const bool measured_elsewhere = std::any_of(stored.model_leaders.begin(), stored.model_leaders.end(),
                                              [&](const Leader& l) { return !stored.here.count(l.params_json); });
  return measured_elsewhere ? stored.model_leaders : std::vector<Leader>{};
}

// Whether leaders were timed in turns.
bool TimingPlan::ConfirmLeadersOnce() {
  std::vector<Leader> leaders = LeadersToTime();
  if (parts_.exchange) {                                                 // every card hands in, even none
    const auto waiting = parts_.clock.Time(SweepClock::Part::kWaiting);  // for the other GPUs' sweeps
    leaders = parts_.exchange(leaders);
  }
  leaders = InTurns(std::move(leaders));
  if (leaders.size() < 2) return false;  // nothing to compare: a lone leader is not measured again
  const std::vector<std::size_t> entries = MeasuredHere(leaders);
  if (entries.size() < 2 || parts_.stop.Requested()) return false;
  return TimeInTurns(entries);
}

// The ledger's entries of these leaders; one not measured by this run is checked and timed here
// first.
std::vector<std::size_t> TimingPlan::MeasuredHere(const std::vector<Leader>& leaders) {
  const SweepLedger& ledger = parts_.ledger;
  std::vector<std::size_t> entries;
  for (const Leader& leader : leaders) {
    std::optional<std::size_t> entry = ledger.Find(leader.params_json);
    if (!entry) {
      if (!measure_leader_(leader.params_json)) break;
      entry = ledger.Find(leader.params_json);
    }
    if (entry && IsOk(ledger.records()[*entry].status)) entries.push_back(*entry);
  }
  return entries;
}

bool TimingPlan::TimeInTurns(const std::vector<std::size_t>& entries) {
  // A card may have sat idle while the others finished their shares.
  if (parts_.exchange) parts_.worker.Call(WarmUpRequest{}, kSetupTimeoutS);
  InterleaveRequest request;
  request.rounds = kRounds;
  for (std::size_t k : entries) request.launches.push_back(parts_.pipeline.Launch(parts_.ledger.compiled(k)));
  const WorkerAnswer<InterleaveReply> answer =
      parts_.worker.Call(request, parts_.measurer.CandidateTimeoutS() * static_cast<double>(entries.size()));
  if (!answer.body || answer.body->time_ms.size() != entries.size()) return false;
  AddThrottle(throttle_, answer.body->throttle);
  for (std::size_t j = 0; j < entries.size(); ++j) {
    db::MeasurementRecord record = parts_.ledger.records()[entries[j]];
    const SampleStats& time_ms = answer.body->time_ms[j];
    // The median and spread now come from the rounds in turns alone; its own samples are kept in words.
    if (!IsConfirmed(record)) record.reason = ConfirmedReason(kRounds, record.samples);
    record.time_ms_median = time_ms.median;
    record.time_ms_spread = time_ms.spread;
    record.time_ms_min = time_ms.min;
    record.time_ms_max = time_ms.max;
    record.samples = time_ms.count;
    launches_per_sample_[record.params_json] = time_ms.launches_per_sample;
    parts_.records.FillPerformance(record);
    parts_.ledger.Replace(entries[j], std::move(record));
  }
  return true;
}

bool TimingPlan::FastestAreConfirmed() const {
  for (const Leader& leader : LeadersInTurns(parts_.ledger.records(), parts_.stored.ok)) {
    const std::optional<std::size_t> entry = parts_.ledger.Find(leader.params_json);
    if (!entry || !IsConfirmed(parts_.ledger.records()[*entry])) return false;
  }
  return true;
}

}  // namespace tuner
