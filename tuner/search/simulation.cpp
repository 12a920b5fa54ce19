#include "search/simulation.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "base/median.h"
#include "search/first_sample.h"
#include "search/methodology_score.h"

namespace tuner {

namespace {

// The stored identity of a candidate, written the way the sweep writes it.
std::map<std::string, const db::MeasurementRecord*> ByParams(const std::vector<db::MeasurementRecord>& records) {
  std::map<std::string, const db::MeasurementRecord*> by_params;
  for (const db::MeasurementRecord& r : records)
    if (r.status != CandidateStatus::kSkipped) by_params[CandidateIdentity(r.params_json)] = &r;
  return by_params;
}

// The stored evaluation of each candidate, by identity.
std::map<std::string, const db::MeasurementRecord*> ByIdentity(const std::vector<db::MeasurementRecord>& records) {
  std::map<std::string, const db::MeasurementRecord*> by_identity;
  for (const db::MeasurementRecord& r : records) by_identity[CandidateIdentity(r.params_json)] = &r;
  return by_identity;
}

std::optional<double> TimeOf(const db::MeasurementRecord& r) {
  if (!IsOk(r.status)) return std::nullopt;
  return r.time_ms_median;
}

}  // namespace

std::optional<std::size_t> Landscape::Optimum() const {
  std::optional<std::size_t> best;
  for (std::size_t c = 0; c < time_ms.size(); ++c)
    if (time_ms[c] && (!best || *time_ms[c] < *time_ms[*best])) best = c;
  return best;
}

std::size_t Landscape::OkCount() const {
  return static_cast<std::size_t>(
      std::count_if(time_ms.begin(), time_ms.end(), [](const auto& t) { return t.has_value(); }));
}

Landscape LandscapeFromRecords(std::vector<ParamValues> candidates, std::vector<ParamSpec> params,
                               const std::vector<db::MeasurementRecord>& records) {
  Landscape landscape{std::move(candidates), std::move(params), {}, {}, {}};
  const std::vector<Evaluation> stored = StoredEvaluations(landscape.candidates, records);
  if (stored.size() < landscape.candidates.size()) {
    std::size_t first_missing = 0;
    while (first_missing < stored.size() && stored[first_missing].candidate == first_missing) ++first_missing;
    throw IncompleteSweepError(std::to_string(landscape.candidates.size() - stored.size()) + " of " +
                               std::to_string(landscape.candidates.size()) +
                               " candidates have no stored result (e.g. " +
                               ParamsJson(landscape.candidates[first_missing]) + ")");
  }
  for (const Evaluation& e : stored)
    landscape.time_ms.push_back(e.ok ? std::optional<double>(e.time_ms) : std::nullopt);
  const auto by_identity = ByIdentity(records);
  for (const ParamValues& c : landscape.candidates) {
    const auto found = by_identity.find(ParamsJson(c));
    landscape.cost_ms.push_back(found == by_identity.end() ? 0 : EvaluationCostMs(*found->second));
    landscape.compile_ms.push_back(found == by_identity.end() ? 0 : found->second->compile_ms);
  }
  return landscape;
}

Landscape LandscapeFromRecordsOnly(const std::vector<db::MeasurementRecord>& records) {
  std::vector<std::tuple<ParamValues, std::optional<double>, double, double>> stored;
  for (const auto& [json, record] : ByParams(records))
    stored.emplace_back(ParamsFromJson(json), TimeOf(*record), EvaluationCostMs(*record), record->compile_ms);
  // Odometer order over ascending values, as a template that lists its values ascending enumerates.
  const auto values_less = [](const auto& a, const auto& b) {
    const ParamValues &pa = std::get<0>(a), &pb = std::get<0>(b);
    return std::lexicographical_compare(pa.begin(), pa.end(), pb.begin(), pb.end(),
                                        [](const auto& x, const auto& y) { return x.second < y.second; });
  };
  std::sort(stored.begin(), stored.end(), values_less);
  Landscape landscape;
  std::vector<std::set<long long>> values;
  for (auto& [params, time, cost, compile] : stored) {
    if (landscape.params.empty()) {
      for (const auto& [name, value] : params) landscape.params.push_back({name, {}, {}});
      values.resize(params.size());
    }
    for (std::size_t d = 0; d < params.size() && d < values.size(); ++d) values[d].insert(params[d].second);
    landscape.candidates.push_back(std::move(params));
    landscape.time_ms.push_back(time);
    landscape.cost_ms.push_back(cost);
    landscape.compile_ms.push_back(compile);
  }
  for (std::size_t d = 0; d < values.size(); ++d) landscape.params[d].values.assign(values[d].begin(), values[d].end());
  return landscape;
}

namespace {

// The candidates a replay has in flight. Untimed, the oldest is evaluated first. Timed, each
// compiles on the first free thread from when it is proposed, and the GPU takes whichever compiled
// first (sweep/guided_search.h).
class ReplayTimeline {
 public:
  ReplayTimeline(const Landscape& landscape, const ReplayShape& shape)
      : landscape_(landscape),
        shape_(shape),
        timed_(shape.compile_threads > 0),
        free_at_(static_cast<std::size_t>(std::max(shape.compile_threads, 1))) {}

  // Proposed at the GPU's time now; a candidate compiling already (the sample) is not compiled again.
  void Propose(std::size_t c) {
    proposed_.push_back(c);
    if (!compiled_at_.count(c)) Compile(c, now_);
  }
  void Compile(std::size_t c, double from_s) {
    if (!timed_) return;
    const auto thread = std::min_element(free_at_.begin(), free_at_.end());
    *thread = std::max(*thread, from_s) + landscape_.compile_ms.at(c) / 1000;
    compiled_at_[c] = *thread;
  }
  void StartAt(double s) { now_ = s; }
  bool Empty() const { return proposed_.empty(); }
  // The first proposal compiled by now, else the one that compiles next (nullopt when `waiting`
  // is false and none is compiled: the strategy stopped, and nothing is waited for).
  std::optional<std::size_t> Take(bool waiting) {
    if (!timed_) {
      const std::size_t oldest = proposed_.front();
      proposed_.erase(proposed_.begin());
      return oldest;
    }
    auto chosen = std::find_if(proposed_.begin(), proposed_.end(), [&](std::size_t c) { return compiled_at_[c] <= now_; });
    if (chosen == proposed_.end() && waiting)
      chosen = std::min_element(proposed_.begin(), proposed_.end(),
                                [&](std::size_t a, std::size_t b) { return compiled_at_[a] < compiled_at_[b]; });
    if (chosen == proposed_.end()) return std::nullopt;
    const std::size_t c = *chosen;
    proposed_.erase(chosen);
    now_ = std::max(now_, compiled_at_[c]) + (landscape_.cost_ms.at(c) - landscape_.compile_ms.at(c)) / 1000 +
           shape_.gpu_floor_s;
    return c;
  }
  double now() const { return now_; }
  std::size_t in_flight() const { return proposed_.size(); }

 private:
  const Landscape& landscape_;
  const ReplayShape& shape_;
  bool timed_;
  std::vector<double> free_at_;  // per compile thread
  std::map<std::size_t, double> compiled_at_;
  std::vector<std::size_t> proposed_;  // in the order proposed
  double now_ = 0;                     // the GPU's
};

}  // namespace

SimulatedRun SimulateRun(const Landscape& landscape, const StrategyOptions& options, double target_ms,
                         const ReplayShape& shape) {
  std::vector<std::size_t> all(landscape.candidates.size());
  for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
  StrategyOptions with_sample = options;
  with_sample.first =
      FirstSample(all, shape.first_sample, options.seed, options.warm.get(), options.max_evaluations);
  const auto strategy = MakeStrategy(with_sample, landscape.candidates, landscape.params);
  const bool timed = shape.compile_threads > 0;
  ReplayTimeline timeline(landscape, shape);
  if (timed) {
    for (const std::size_t c : with_sample.first) timeline.Compile(c, 0);
    if (shape.search_starts_s) timeline.StartAt(shape.search_starts_s(with_sample.first));
  }
  std::vector<Evaluation> history;
  SimulatedRun run;
  const auto evaluate = [&](std::size_t candidate) {
    const std::optional<double>& time = landscape.time_ms.at(candidate);
    history.push_back({candidate, time.has_value(), time.value_or(0)});
    run.order.push_back(candidate);
    if (time && (!run.best_ms || *time < *run.best_ms)) run.best_ms = time;
    if (time && *time <= target_ms && !run.evaluations_to_target) {
      run.evaluations_to_target = history.size();
      if (timed) run.seconds_to_target = timeline.now();
    }
  };
  // Untimed, the proposals in flight are evaluated oldest first; once the strategy stops, those
  // already proposed are still evaluated (their compiles were under way); timed, as tune does.
  const bool budgeted = options.max_evaluations > 0;
  for (bool done = false;;) {
    while (!done && timeline.in_flight() < std::max<std::size_t>(shape.look_ahead, 1)) {
      const std::optional<std::size_t> next = strategy->Next(history);
      if (next)
        timeline.Propose(*next);
      else if (strategy->AwaitsResults())
        break;  // asked again after the next result
      else
        done = true;
    }
    if (timeline.Empty()) break;
    const std::optional<std::size_t> next = timeline.Take(!done || budgeted);
    if (!next) break;
    evaluate(*next);
  }
  run.evaluations = history.size();
  run.seconds = timeline.now();
  return run;
}

double EvaluationCostMs(const db::MeasurementRecord& record) {
  return record.compile_ms + record.samples * record.time_ms_median;
}

StrategySummary SimulateStrategy(const Landscape& landscape, const StrategyOptions& options, std::size_t runs,
                                 double tolerance, const std::function<void()>& run_done,
                                 const MethodologySettings& score_settings, const ReplayShape& shape) {
  const std::optional<std::size_t> optimum = landscape.Optimum();
  if (!optimum) throw std::invalid_argument("no candidate of the stored sweep succeeded: nothing to search for");
  const double optimum_ms = *landscape.time_ms[*optimum];
  StrategySummary summary;
  summary.strategy = options.name;
  summary.runs = runs;
  std::vector<std::size_t> to_target;
  std::vector<double> seconds_to_target;
  double evaluations = 0, ratio = 0, seconds = 0;
  std::size_t found = 0;
  for (std::size_t r = 0; r < runs; ++r) {
    StrategyOptions seeded = options;
    seeded.seed = options.seed + r;
    const SimulatedRun run = SimulateRun(landscape, seeded, optimum_ms * (1 + tolerance), shape);
    evaluations += static_cast<double>(run.evaluations);
    seconds += run.seconds;
    if (run.seconds_to_target) seconds_to_target.push_back(*run.seconds_to_target);
    if (run.best_ms) {
      ratio += *run.best_ms / optimum_ms;
      ++found;
    }
    if (run.evaluations_to_target) to_target.push_back(*run.evaluations_to_target);
    summary.orders.push_back(run.order);
    if (run_done) run_done();
  }
  try {
    summary.methodology_score = MethodologyScore(landscape.time_ms, landscape.cost_ms, summary.orders, score_settings);
  } catch (const std::invalid_argument& e) {
    summary.score_note = e.what();
  }
  summary.reached = to_target.size();
  summary.mean_evaluations = runs ? evaluations / static_cast<double>(runs) : 0;
  summary.mean_seconds = runs ? seconds / static_cast<double>(runs) : 0;
  if (!seconds_to_target.empty())
    summary.mean_seconds_to_target =
        std::accumulate(seconds_to_target.begin(), seconds_to_target.end(), 0.0) / static_cast<double>(seconds_to_target.size());
  summary.mean_best_ratio = found ? ratio / static_cast<double>(found) : 0;
  if (to_target.empty()) return summary;
  double sum = 0;
  for (const std::size_t n : to_target) sum += static_cast<double>(n);
  summary.mean_to_target = sum / static_cast<double>(to_target.size());
  summary.median_to_target = Median(std::vector<double>(to_target.begin(), to_target.end()));
  summary.min_to_target = *std::min_element(to_target.begin(), to_target.end());
  summary.max_to_target = *std::max_element(to_target.begin(), to_target.end());
  return summary;
}

}  // namespace tuner
