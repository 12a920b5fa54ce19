#include "sweep/revalidate.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "db/query/best.h"
#include "db/row_json.h"
#include "reports/report_format.h"

namespace tuner {

namespace {

// (size_key, timing mode): results of different modes are never compared.
using SizeAndMode = std::pair<std::string, std::string>;
using LeadersBySize = std::map<SizeAndMode, std::vector<db::MeasurementRecord>>;

// The `count` best ok results of each stored size and timing mode (`only`'s, when given) of this
// version on this card, best first.
LeadersBySize StoredLeaders(const TemplateSpec& spec, const std::string& gpu_uuid, db::Store& store,
                            std::optional<TimingMode> only, std::size_t count) {
  LeadersBySize by_size;
  for (db::MeasurementRow& row : store.ListMeasurements({spec.name, "", "", CandidateStatus::kOk, false}))
    if (row.gpu.uuid == gpu_uuid && row.templ.hash == spec.hash &&
        (!only || row.measurement.timing_mode == ToText(*only)))
      by_size[{row.size_key, row.measurement.timing_mode}].push_back(std::move(row.measurement));
  for (auto& [size_key, leaders] : by_size) {
    std::stable_sort(leaders.begin(), leaders.end(), db::FasterRecord);
    if (leaders.size() > count) leaders.resize(count);
  }
  return by_size;
}

// The target with only the candidates of `records`, in the template's order.
SweepTarget OnlyThese(const SweepTarget& target, const std::vector<db::MeasurementRecord>& records) {
  SweepTarget only{target.spec, target.size, {}};
  for (const ParamValues& candidate : target.candidates)
    if (std::any_of(records.begin(), records.end(), [&](const db::MeasurementRecord& r) {
          return CandidateIdentity(r.params_json) == ParamsJson(candidate);
        }))
      only.candidates.push_back(candidate);
  return only;
}

// The stored text of a mode, as a mode to time in.
TimingMode StoredMode(const std::string& text) {
  const std::optional<TimingMode> mode = TimingModeFromText(text);
  if (!mode) throw std::runtime_error("a stored result has the unknown timing mode '" + text + "'");
  return *mode;
}

// The size's best in its mode now, as every ranking serves it.
std::string BestNow(db::Store& store, const TemplateSpec& spec, const std::string& gpu_uuid,
                    const std::string& size_key, TimingMode timing) {
  for (const db::MeasurementRow& row : store.BestPerGpu(spec.name, spec.hash, ToText(timing)))
    if (row.gpu.uuid == gpu_uuid && row.size_key == size_key && row.templ.hash == spec.hash)
      return row.measurement.params_json;
  return "";
}

void StoreVerdicts(db::Store& store, const db::SizeVerdict& verdict) {
  for (const db::LeaderVerdict& leader : verdict.leaders) store.SetRevalidation(leader.before.id, leader.Text());
}

}  // namespace

SweepRemeasurer::SweepRemeasurer(const GpuInfo& gpu, const SweepOptions& options, db::Store& store)
    : gpu_(gpu), options_(options), store_(store) {
  options_.force = true;  // measured again, whatever is stored
  options_.strategy.name = "brute_force";
  options_.strategy.max_evaluations = 0;
  options_.budget_seconds = 0;
}

std::vector<db::MeasurementRecord> SweepRemeasurer::Leaders(const SweepTarget& leaders, TimingMode timing) {
  SweepOptions options = options_;
  options.counters = CounterMode::kOff;  // the verdict needs times only
  options.timing = timing;
  return RunSweep(leaders, gpu_, options, store_).measured;
}

void SweepRemeasurer::Retune(const SweepTarget& target, TimingMode timing) {
  SweepOptions options = options_;
  options.timing = timing;
  RunSweep(target, gpu_, options, store_);
}

bool SweepRemeasurer::Stopped() const { return options_.stop->Requested(); }

std::vector<SizeRevalidation> Revalidate(const TemplateSpec& spec, const std::string& gpu_uuid, db::Store& store,
                                         Remeasurer& remeasurer, std::optional<TimingMode> only, std::size_t count) {
  const LeadersBySize stored = StoredLeaders(spec, gpu_uuid, store, only, count);
  if (stored.empty())
    throw std::runtime_error("nothing of '" + spec.name + "' (this version" +
                             (only ? std::string(", timed ") + ToText(*only) : std::string()) + ") is stored for GPU " +
                             gpu_uuid + " in " + store.path() + ": there is nothing to revalidate; run 'tuner tune " +
                             spec.name + "'");
  std::vector<SizeRevalidation> sizes;
  for (const auto& [size_and_mode, leaders] : stored) {
    const auto& [size_key, mode_text] = size_and_mode;
    const TimingMode timing = StoredMode(mode_text);
    const SweepTarget target = TargetAtSize(spec, ParseProblemSize(spec, size_key));
    const std::vector<db::MeasurementRecord> again = remeasurer.Leaders(OnlyThese(target, leaders), timing);
    if (remeasurer.Stopped()) break;
    SizeRevalidation size{size_key, timing, db::JudgeLeaders(leaders, again), false, ""};
    if (size.verdict.NeedsRetune()) {
      remeasurer.Retune(target, timing);
      size.retuned = true;
    }
    StoreVerdicts(store, size.verdict);  // after a re-tune, which stores its own measurements
    size.best_after = BestNow(store, spec, gpu_uuid, size_key, timing);
    sizes.push_back(std::move(size));
  }
  return sizes;
}

void PrintRevalidation(const std::vector<SizeRevalidation>& sizes, std::ostream& out) {
  for (const SizeRevalidation& size : sizes) {
    out << size.size_key << " (timed " << ToText(size.timing) << "):\n";
    for (const db::LeaderVerdict& leader : size.verdict.leaders)
      out << "  " << report::ParamsText(leader.before.params_json) << "  " << leader.Text() << "\n";
    if (size.retuned)
      out << "  the winner " << (size.verdict.winner_after == size.verdict.winner_before ? "did not hold" : "changed")
          << ": tuned again; best now "
          << (size.best_after.empty() ? "none (no candidate passes)" : report::ParamsText(size.best_after)) << "\n";
    else
      out << "  the winner holds: " << report::ParamsText(size.best_after) << "\n";
  }
}

nlohmann::ordered_json RevalidationJson(const std::vector<SizeRevalidation>& sizes) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const SizeRevalidation& size : sizes) {
    nlohmann::ordered_json leaders = nlohmann::ordered_json::array();
    for (const db::LeaderVerdict& leader : size.verdict.leaders)
      leaders.push_back({{"params", db::ParseStoredJson(leader.before.params_json)},
                         {"verdict", db::ToString(leader.verdict)},
                         {"before_ms", leader.before.time_ms_median},
                         {"after_ms", leader.after.time_ms_median},
                         {"status", ToText(leader.after.status)},
                         {"text", leader.Text()}});
    out.push_back({{"size", size.size_key},
                   {"timing_mode", ToText(size.timing)},
                   {"leaders", leaders},
                   {"winner_before", db::ParseStoredJson(size.verdict.winner_before)},
                   {"winner_after", db::ParseStoredJson(size.verdict.winner_after)},
                   {"retuned", size.retuned},
                   {"best_after", db::ParseStoredJson(size.best_after)}});
  }
  return {{"sizes", out}};
}

}  // namespace tuner
