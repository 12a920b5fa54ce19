#include "sweep/sweep_summary.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "common/text_table.h"
#include "db/counters.h"
#include "db/query/best.h"
#include "db/query/gpu_model.h"
#include "db/row_json.h"
#include "db/speed_of_light.h"
#include "reports/report_format.h"
#include "sweep/leader_summary.h"

namespace tuner {

namespace {

using report::ParamsText;

// A candidate's keys in `tune --json` (a contract scripts read).
const std::vector<db::JsonKey>& TuneJsonKeys() {
  using R = db::MeasurementRecord;
  static const std::vector<db::JsonKey> keys = {
      {&R::params_json, "/params"},      {&R::launch_json, "/launch"},      {&R::status, "/status"},
      {&R::reason, "/reason"},           {&R::time_ms_median, "/time_ms"},  {&R::time_ms_min, "/time_ms_min"},
      {&R::time_ms_max, "/time_ms_max"}, {&R::time_ms_spread, "/spread"},   {&R::samples, "/samples"},
      {&R::perf_value, "/perf"},         {&R::perf_unit, "/perf_unit"},     {&R::regs_per_thread, "/regs_per_thread"},
      {&R::smem_bytes, "/smem_bytes"},   {&R::spill_bytes, "/spill_bytes"}, {&R::blocks_per_sm, "/blocks_per_sm"},
      {&R::occupancy, "/occupancy"},     {&R::limiter, "/limiter"},         {&R::worker_kills, "/worker_kills"},
      {&R::timing_mode, "/timing_mode"}};
  return keys;
}

nlohmann::json RecordJson(const db::MeasurementRecord& r) { return db::RecordJson(r, TuneJsonKeys()); }

nlohmann::json RecordWithHardwareJson(const db::MeasurementRecord& r) {
  nlohmann::json json = RecordJson(r);
  json.update(db::HardwareJson(r));
  return json;
}

// The best by the objective; the fastest when no candidate has what it needs (no energy measured).
std::optional<db::MeasurementRecord> Best(const std::vector<db::MeasurementRecord>& records, db::Objective objective) {
  const auto best = db::BestBy(records, objective);
  return best ? best : db::BestBy(records, db::Objective::kTime);
}

// The ok candidates fastest first (db/query/best.h), then the others in the store's order.
std::vector<db::MeasurementRecord> SortedByTime(std::vector<db::MeasurementRecord> records) {
  std::stable_sort(records.begin(), records.end(), db::FasterRecord);
  return records;
}

void PrintTable(const std::vector<db::MeasurementRecord>& records, std::ostream& os) {
  TextTable table({"PARAMS", "STATUS", "TIME ms", "PERF", "REGS", "SMEM", "OCC", "LIMITER", "NOTE"});
  for (const auto& r : SortedByTime(records)) {
    const bool ok = IsOk(r.status);
    table.Add({ParamsText(r.params_json), ToText(r.status), ok ? Fixed(r.time_ms_median, 4) : "",
               ok ? Fixed(r.perf_value, 1) + " " + r.perf_unit : "", std::to_string(r.regs_per_thread),
               std::to_string(r.smem_bytes), Fixed(r.occupancy * 100, 0) + "%", r.limiter, r.reason.substr(0, 70)});
  }
  table.Print(os);
}

// The bound a pipeline's overlap approaches: its slowest stage alone.
double StageBoundMs(const StageTimes& stages) { return std::max({stages.h2d_ms, stages.kernel_ms, stages.d2h_ms}); }

void PrintPipelineStages(const std::optional<PipelineStages>& winner, std::ostream& os) {
  if (!winner) return;
  const StageTimes& t = winner->stages;
  os << "stages of this run's winner alone (" << winner->pipeline << ", whole problem, one stream): H2D "
     << Fixed(t.h2d_ms, 3) << " ms, kernel " << Fixed(t.kernel_ms, 3) << " ms, D2H " << Fixed(t.d2h_ms, 3)
     << " ms; the pipeline took " << Fixed(winner->time_ms, 3)
     << " ms = " << Fixed(winner->time_ms / StageBoundMs(t), 2) << "x its slowest stage\n";
}

// As tune --json shows them.
nlohmann::json StagesJson(const PipelineStages& winner) {
  const StageTimes& t = winner.stages;
  return {{"h2d_ms", t.h2d_ms},
          {"kernel_ms", t.kernel_ms},
          {"d2h_ms", t.d2h_ms},
          {"pipeline", winner.pipeline},
          {"params", nlohmann::json::parse(winner.params_json)},
          {"time_ms", winner.time_ms},
          {"bound_ms", StageBoundMs(t)}};
}

// What the counters and energy pass cost (null: no pass).
nlohmann::json HardwarePassJson(const std::optional<HardwarePassCost>& cost) {
  if (!cost) return nullptr;
  return {{"wall_ms", cost->wall_ms},
          {"requests", cost->requests},
          {"counters", cost->counters},
          {"energy", cost->energy},
          {"worker_ms", cost->worker_ms}};
}

// "TILE=32 ROWS=8  0.1234 ms  812.3 GB/s": a best candidate in a line.
std::string BestText(const db::MeasurementRecord& best) {
  return ParamsText(best.params_json) + "  " + Fixed(best.time_ms_median, 4) + " ms  " + Fixed(best.perf_value, 1) +
         " " + best.perf_unit;
}

// The best's throughput over the device-to-device copy's, where that is its ceiling: a bandwidth whose
// counters do not say it is compute-bound, of a kernel without host stages (a pipeline is compared
// with its stages).
std::optional<double> FractionOfCopy(const TemplateSpec& spec, const SweepOutcome& out,
                                     const db::MeasurementRecord& best) {
  if (best.perf_unit != "GB/s" || !(out.copy_gbps > 0) || spec.pipeline.enabled ||
      !db::CeilingApplies(best.perf_unit, best.counters_json))
    return std::nullopt;
  return best.perf_value / out.copy_gbps;
}

// The best by the objective, against copy bandwidth where it is a bandwidth and its counters do not
// say it is compute-bound (a pipeline: against its stages), with its counters, speed of light and
// energy, and the leaders.
void PrintBest(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective, std::ostream& os) {
  const auto best = Best(out.stored, objective);
  if (!best) {
    os << "\nNo candidate passed the check.\n";
    return;
  }
  os << "\nbest" << (objective == db::Objective::kTime ? "" : std::string(" (") + db::ToString(objective) + ")") << ": "
     << BestText(*best);
  if (const auto fraction = FractionOfCopy(spec, out, *best))
    os << " = " << Fixed(100 * *fraction, 1) << "% of device-to-device copy (" << Fixed(out.copy_gbps, 0)
       << " GB/s, same run)";
  os << "\n" << db::HardwareText(*best, "  ");
  PrintPipelineStages(out.pipeline_stages, os);
  os << "\n";
  PrintLeaders(SummariseLeaders(out.stored), os);
}

// The records of each model over its GPUs' shares, under the name output gives the model, in the
// order of the names; two models whose memory differs by less than a GiB get their bytes too.
std::vector<std::pair<std::string, std::vector<db::MeasurementRecord>>> PerModel(
    const std::vector<SweepOutcome>& outcomes) {
  std::map<std::pair<std::string, db::GpuModel>, std::vector<db::MeasurementRecord>> per_model;
  for (const SweepOutcome& out : outcomes) {
    const db::GpuModel model = db::ModelOf(out.gpu);
    auto& records = per_model[{model.Text(), model}];
    records.insert(records.end(), out.stored.begin(), out.stored.end());
  }
  std::map<std::string, int> models_named;
  for (const auto& entry : per_model) ++models_named[entry.first.first];
  std::vector<std::pair<std::string, std::vector<db::MeasurementRecord>>> named;
  for (const auto& [key, records] : per_model) {
    const auto& [text, model] = key;
    named.emplace_back(text + (models_named[text] > 1 ? " (" + std::to_string(model.memory_bytes) + " bytes)" : ""),
                       records);
  }
  return named;
}

// Candidates compiled by this run, and those taken from the compile cache (a size after the first).
std::pair<std::size_t, std::size_t> CompiledAndCached(const SweepOutcome& out) {
  std::size_t compiled = 0, cached = 0;
  for (const db::MeasurementRecord& r : out.measured) {
    if (r.status == CandidateStatus::kInvalid) continue;
    ++(r.compile_ms > 0 ? compiled : cached);
  }
  return {compiled, cached};
}

const char* const kSharedCandidates =
    "sizes are not compiled into a candidate (only parameters are macros; sizes reach the kernel as arguments "
    "and launch geometry), so each candidate is compiled once and every further size loads it from the compile cache";

// The table of `sizes` sizes' bests, and where the dispatch table is.
void PrintSizes(const TemplateSpec& templ, std::size_t sizes, const TextTable& table, std::ostream& os) {
  os << templ.name << " at " << sizes << " sizes:\n";
  table.Print(os);
  os << "\nCompiled candidates: " << kSharedCandidates << ".\nEach size's loss with the other sizes' winners, and the "
     << "smallest set of configurations within 5% at every size (the dispatch table): tuner report " << templ.name
     << "\n";
}

// "timed graph; throttling accounted: 2 sample(s) discarded and taken again (NVML read 812 times)":
// how the times were taken.
std::string TimingText(const SweepOutcome& out) {
  const std::string text = std::string("timed ") + ToText(out.timing) + "; throttling ";
  if (!out.throttle.unavailable.empty()) return text + "not accounted: " + out.throttle.unavailable;
  return text + "accounted: " + std::to_string(out.throttle.discarded) +
         " sample(s) discarded and taken again (NVML read " + std::to_string(out.throttle.reads) + " times)";
}

nlohmann::json ThrottleJson(const ThrottleCount& throttle) {
  return {{"discarded_samples", throttle.discarded},
          {"nvml_reads", throttle.reads},
          {"unavailable", throttle.unavailable.empty() ? nlohmann::json() : nlohmann::json(throttle.unavailable)}};
}

}  // namespace

void PrintSummary(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective, std::ostream& os) {
  os << spec.name << " " << out.size.Key() << " on GPU " << out.gpu.index << " (" << out.gpu.name << ", "
     << out.gpu.Arch() << "): " << out.candidates << " candidates"
     << (out.shard.empty() ? "" : " (" + std::to_string(out.shard_candidates) + " in shard " + out.shard + ")") << ", "
     << out.measured.size() << " measured now, " << out.already_stored << " already stored\n"
     << TimingText(out) << "\n\n";
  PrintTable(out.stored, os);
  PrintBest(spec, out, objective, os);
  os << "\n" << Describe(out.time) << "\n";
}

namespace {

// The launches each sample of this run's time of `best` spanned (1 isolated; the batch in graph
// and back_to_back, which a profiler's time of the whole batch is divided by); null when this run
// did not time it. Not stored: the store keeps only the time per launch.
nlohmann::json LaunchesPerSampleJson(const SweepOutcome& out, const db::MeasurementRecord& best) {
  const auto found = out.launches_per_sample.find(best.params_json);
  return found == out.launches_per_sample.end() ? nlohmann::json() : nlohmann::json(found->second);
}

}  // namespace

nlohmann::json OutcomeJson(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& r : SortedByTime(out.stored)) candidates.push_back(RecordWithHardwareJson(r));
  const auto best = Best(out.stored, objective);
  nlohmann::json doc = {
      {"kernel", spec.name},
      {"size", out.size.Key()},
      {"template_hash", spec.hash},
      {"gpu", {{"index", out.gpu.index}, {"name", out.gpu.name}, {"uuid", out.gpu.uuid}, {"arch", out.gpu.Arch()}}},
      {"copy_gbps", out.copy_gbps},
      {"candidates_total", out.candidates},
      {"measured_now", out.measured.size()},
      {"already_stored", out.already_stored},
      {"strategy", ToJson(out.strategy)},
      {"interrupted", out.interrupted},
      {"timing_mode", ToText(out.timing)},
      {"throttle", ThrottleJson(out.throttle)},
      {"time", ToJson(out.time)},
      {"candidates", candidates},
      {"best", nullptr},
      {"objective", db::ToString(objective)},
      {"counters_unavailable",
       out.counters_unavailable.empty() ? nlohmann::json() : nlohmann::json(out.counters_unavailable)},
      {"energy_unavailable",
       out.energy_unavailable.empty() ? nlohmann::json() : nlohmann::json(out.energy_unavailable)},
      {"hardware_pass", HardwarePassJson(out.hardware_pass)}};
  if (!out.shard.empty()) doc.update({{"shard", out.shard}, {"shard_candidates", out.shard_candidates}});
  if (best) {
    doc["best"] = RecordWithHardwareJson(*best);
    doc["best"]["launches_per_sample"] = LaunchesPerSampleJson(out, *best);
    if (const auto fraction = FractionOfCopy(spec, out, *best)) doc["best"]["fraction_of_copy"] = *fraction;
  }
  if (out.pipeline_stages) doc["pipeline_stages"] = StagesJson(*out.pipeline_stages);
  doc.update(ToJson(SummariseLeaders(out.stored)));
  return doc;
}

bool ReportSweep(const TemplateSpec& spec, const SweepOutcome& out, bool json, db::Objective objective,
                 std::ostream& os) {
  if (json)
    os << OutcomeJson(spec, out, objective).dump(2) << "\n";
  else
    PrintSummary(spec, out, objective, os);
  return db::BestBy(out.stored, db::Objective::kTime).has_value();
}

bool ReportSweeps(const TemplateSpec& spec, const std::vector<SweepOutcome>& outcomes, bool json,
                  db::Objective objective, std::ostream& os) {
  nlohmann::json doc = {{"sweeps", nlohmann::json::array()}, {"best_per_model", nlohmann::json::object()}};
  for (const SweepOutcome& out : outcomes) {
    if (json) {
      doc["sweeps"].push_back(OutcomeJson(spec, out, objective));
    } else {
      PrintSummary(spec, out, objective, os);
      os << "\n";
    }
  }
  bool all_have_best = true;
  for (const auto& [model, records] : PerModel(outcomes)) {
    const auto best = Best(records, objective);
    all_have_best &= best.has_value();
    if (json)
      doc["best_per_model"][model] = best ? RecordWithHardwareJson(*best) : nlohmann::json();
    else if (best)
      os << "best on " << model << ": " << BestText(*best) << "\n";
  }
  if (json) os << doc.dump(2) << "\n";
  return all_have_best;
}

bool ReportSizes(const TemplateSpec& templ, const std::vector<SweepOutcome>& outcomes, bool json,
                 db::Objective objective, std::ostream& os) {
  bool all_have_best = true;
  nlohmann::json doc = {
      {"kernel", templ.name}, {"sizes", nlohmann::json::array()}, {"compiled_candidates", kSharedCandidates}};
  TextTable table({"SIZE", "BEST", "TIME ms", "PERF", "MEASURED NOW", "COMPILED", "FROM CACHE"});
  for (const SweepOutcome& out : outcomes) {
    const auto best = Best(out.stored, objective);
    const auto [compiled, cached] = CompiledAndCached(out);
    all_have_best &= best.has_value();
    if (json) {
      doc["sizes"].push_back(OutcomeJson(templ, out, objective));
      doc["sizes"].back().update({{"compiled_now", compiled}, {"from_compile_cache", cached}});
      continue;
    }
    PrintSummary(templ, out, objective, os);
    os << "\n";
    table.Add({out.size.Key(), best ? ParamsText(best->params_json) : "none passed",
               best ? Fixed(best->time_ms_median, 4) : "",
               best ? Fixed(best->perf_value, 1) + " " + best->perf_unit : "", std::to_string(out.measured.size()),
               std::to_string(compiled), std::to_string(cached)});
  }
  if (json)
    os << doc.dump(2) << "\n";
  else
    PrintSizes(templ, outcomes.size(), table, os);
  return all_have_best;
}

}  // namespace tuner
