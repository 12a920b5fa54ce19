// Search strategies: which candidate of a sweep to evaluate next. The sweep asks Next() with every
// evaluation so far; a strategy never proposes a candidate twice. Brute force and random sampling
// cover the space; annealing and the genetic algorithm walk the neighbourhood graph
// (candidate_graph.h) and stop by themselves once they stop improving.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "search/warm_start.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

// One evaluated candidate. ok=false: it failed (compile error, wrong result, fault, invalid, ...)
// and is treated as infinitely slow.
struct Evaluation {
  std::size_t candidate = 0;  // index into the enumerated candidates
  bool ok = false;
  double time_ms = 0;
};

class SearchStrategy {
 public:
  virtual ~SearchStrategy() = default;
  // The next candidate index to evaluate, given every evaluation so far in order; nullopt when the
  // strategy is done (budget spent, space exhausted, or converged). Never returns an index twice.
  // `history` only grows between calls. It may hold candidates the strategy did not propose (results
  // already stored when a sweep resumes): they count as evaluated and against the budget. Next may
  // be called again before the last proposal's result is in (to keep a compile pipeline full).
  // Throws std::invalid_argument when history shrinks or names an index out of range.
  virtual std::optional<std::size_t> Next(const std::vector<Evaluation>& history) = 0;
  // After Next returned nullopt: true when the strategy is not done but waits for the results of
  // candidates it proposed (the Bayesian strategy's polish, whose next step starts from the fastest
  // of them); ask again once one is in. False: done.
  virtual bool AwaitsResults() const { return false; }
};

struct StrategyOptions {
  std::string name = "brute_force";  // brute_force | random | annealing | genetic | bayesian
  std::size_t max_evaluations = 0;   // 0: no limit; counts every distinct candidate proposed or in history
  unsigned long long seed = 0;       // same seed, same history: same proposals
  // Other stored sweeps' word on this space: every strategy but brute force evaluates its seeds
  // first, on top of its cold search (search/warm_seeds.h). Null: a cold start.
  std::shared_ptr<const WarmStart> warm;
  // The Bayesian strategy stops once the model expects no unmeasured candidate to beat the best by
  // this fraction (0.005: 0.5%), after at least 20 evaluations without a better time; 0: only its
  // patience (and the budget) stop it. Others ignore it.
  double min_expected_gain = 0;
  // The Bayesian strategy stops after this many evaluations without a better time; 0: its own,
  // max(20, min(100, candidates / 8)). Others ignore it.
  std::size_t patience = 0;
  // Candidates to evaluate first, before the warm start's seeds:
  // tune --strategy auto's estimate sample (search/first_sample.h), compiled already.
  std::vector<std::size_t> first{};
};

// The strategy names MakeStrategy accepts, brute force first.
const std::vector<std::string>& StrategyNames();

// Brute force and random sampling: their order is fixed before any result, so their candidates can
// be shared out (--gpus, --shard) and a sweep measures every one of them in planned passes.
bool IsPlannedStrategy(const std::string& name);

// Throws UsageError naming --strategy unless `name` is one of StrategyNames() or of `also` (a
// command's own choices, listed first in the message).
void RequireStrategyName(const std::string& name, const std::vector<std::string>& also = {});

// Throws UsageError for an unknown name, std::invalid_argument when `candidates` do not carry the
// parameters of `params` in order.
std::unique_ptr<SearchStrategy> MakeStrategy(const StrategyOptions& options, const std::vector<ParamValues>& candidates,
                                             const std::vector<ParamSpec>& params);

// What a sweep has stored already, as a history (to resume a sweep with a strategy, or to replay
// one): one evaluation per candidate with a stored record other than `skipped`, in candidate order;
// ok when the record's status is ok, with its median time.
std::vector<Evaluation> StoredEvaluations(const std::vector<ParamValues>& candidates,
                                          const std::vector<db::MeasurementRecord>& records);

}  // namespace tuner
