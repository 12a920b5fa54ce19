#include "search/bayesian.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

#include "search/gaussian_process.h"
#include "search/length_scales.h"
#include "search/strategy_base.h"

namespace tuner {

namespace {

constexpr std::size_t kInitialSamples = 10;     // random candidates before the model proposes
constexpr double kRefitGrowth = 1.5;            // hyperparameters are chosen again when the data grew by half
constexpr std::size_t kMaxPool = 20000;         // candidates scored per proposal: a fixed sample of larger spaces
constexpr std::size_t kMaxObservations = 1000;  // the model's size limit: the strategy stops there
constexpr std::size_t kMinPatience = 20;        // evaluations without a better time before it stops,
constexpr std::size_t kMaxPatience = 100;       // an eighth of the space within these bounds
const double kFailedPenalty = std::log(2.0);    // a failed candidate: twice as slow as the slowest that passed

std::vector<GpHyper> HyperGrid() {
  std::vector<GpHyper> grid;
  for (const double length_scale : {0.3, 0.5, 0.8, 1.2, 2.0})
    for (const double noise : {1e-3, 1e-2}) grid.push_back({length_scale, noise});
  return grid;
}

// Standard normal density and distribution.
double Density(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI); }
double Distribution(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// Of a minimisation with the best value `best`: the expected amount by which a point whose value is
// normal with `mean` and `sd` comes in under it.
double ExpectedImprovement(double mean, double sd, double best) {
  const double z = (best - mean) / sd;
  return sd * (z * Distribution(z) + Density(z));
}

class BayesianOptimisation : public StrategyBase {
 public:
  BayesianOptimisation(CandidateGraph space, const StrategyOptions& options)
      : StrategyBase(space.size(), options),
        space_(std::move(space)),
        patience_(options.patience ? options.patience : std::clamp(space_.size() / 8, kMinPatience, kMaxPatience)),
        min_expected_gain_(options.min_expected_gain) {
    ChoosePool();
  }

 private:
  // Each parameter's values evenly on [0, 1], in ascending order.
  Eigen::VectorXd Point(std::size_t candidate) const {
    Eigen::VectorXd x(static_cast<Eigen::Index>(space_.dimensions()));
    for (std::size_t d = 0; d < space_.dimensions(); ++d) {
      const std::size_t extent = space_.Extent(d);
      x[static_cast<Eigen::Index>(d)] =
          extent > 1 ? static_cast<double>(space_.Coordinates(candidate)[d]) / static_cast<double>(extent - 1) : 0.0;
    }
    return x;
  }

  // Every candidate, or a seeded sample of a space too large to score every candidate each time.
  void ChoosePool() {
    const std::size_t n = CandidateCount();
    pool_.resize(std::min(n, kMaxPool));
    if (n <= kMaxPool) {
      for (std::size_t c = 0; c < n; ++c) pool_[c] = c;
      return;
    }
    std::vector<std::size_t> all(n);  // a partial Fisher-Yates shuffle
    for (std::size_t c = 0; c < n; ++c) all[c] = c;
    for (std::size_t i = 0; i < kMaxPool; ++i) std::swap(all[i], all[i + rng().Below(n - i)]);
    std::copy(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kMaxPool), pool_.begin());
    std::sort(pool_.begin(), pool_.end());
  }

  void OnResult(const Evaluation& e) override {
    if (!e.ok) {
      failed_.push_back(e.candidate);
      if (slowest_) AddFailures();
      return;
    }
    const double y = std::log(e.time_ms);
    slowest_ = std::max(slowest_.value_or(y), y);
    Observe(e.candidate, y);
    AddFailures();  // those that failed before any candidate passed
  }

  void AddFailures() {
    for (const std::size_t c : failed_) Observe(c, *slowest_ + kFailedPenalty);
    failed_.clear();
  }

  void Observe(std::size_t candidate, double y) {
    xs_.push_back(Point(candidate));
    ys_.push_back(y);
    if (model_) model_->Add(Scaled(xs_.back(), scales_), y);
  }

  void Refit() {
    scales_ = MostLikelyLengthScales(HyperGrid(), xs_, ys_);
    Eigen::MatrixXd pool(static_cast<Eigen::Index>(space_.dimensions()), static_cast<Eigen::Index>(pool_.size()));
    for (std::size_t i = 0; i < pool_.size(); ++i) pool.col(static_cast<Eigen::Index>(i)) = Scaled(Point(pool_[i]), scales_);
    model_ = std::make_unique<GaussianProcess>(std::move(pool), GpHyper{1.0, scales_.noise});
    for (std::size_t i = 0; i < xs_.size(); ++i) model_->Add(Scaled(xs_[i], scales_), ys_[i]);
    next_refit_ = static_cast<std::size_t>(std::ceil(kRefitGrowth * static_cast<double>(xs_.size())));
  }

  // The spread of the log times the process standardises: one of its units in log time.
  double LogTimeScale() const {
    const Eigen::Map<const Eigen::VectorXd> r(ys_.data(), static_cast<Eigen::Index>(ys_.size()));
    const double sd = std::sqrt((r.array() - r.mean()).square().mean());
    return sd > 1e-12 ? sd : 1.0;
  }

  // The model's posterior over the pool, in the process's own units; `log_scale` says how much log
  // time one of them is.
  GaussianProcess::Posterior LogTimePosterior(double* log_scale) const {
    *log_scale = LogTimeScale();
    return model_->Predict();
  }

  // Proposals made before the results of earlier ones are in (a sweep compiling ahead) would crowd
  // around one spot: each pending candidate damps the score of those the model correlates with it
  // (local penalisation), by the one length scale for all parameters: with a parameter's own short
  // scale a step along it would hardly damp, and a batch would line up along that parameter.
  // Without pending candidates, 1.
  double PendingPenalty(std::size_t candidate, const std::vector<Eigen::VectorXd>& pending) const {
    if (pending.empty()) return 1.0;
    const Eigen::VectorXd x = Point(candidate) / scales_.isotropic;
    double penalty = 1.0;
    for (const Eigen::VectorXd& p : pending) penalty *= 1.0 - model_->Correlation(x, p);
    return penalty;
  }

  std::vector<Eigen::VectorXd> PendingPoints() const {
    std::vector<Eigen::VectorXd> points;
    for (const std::size_t c : Pending()) points.push_back(Point(c) / scales_.isotropic);
    return points;
  }

  // Once the model has nothing more to offer: the unvisited candidates that differ from the fastest
  // in one parameter (any other value of it, the nearest first), then in two parameters by one step
  // each, until there are none and no result is pending (AwaitsResults): the search ends on an
  // optimum of that neighbourhood. A move in two parameters at once escapes where they interact (on
  // the community's convolution on an H100, a block 16 wide is fast only with padding, and 64 wide
  // only without). Proposed together, they compile together.
  std::optional<std::size_t> Polish() {
    polishing_ = true;
    if (!Best()) return std::nullopt;
    const std::vector<std::size_t>& at = space_.Coordinates(*Best());
    std::size_t widest = 0;
    for (std::size_t d = 0; d < space_.dimensions(); ++d) widest = std::max(widest, space_.Extent(d));
    for (std::size_t step = 1; step < widest; ++step)
      for (std::size_t d = 0; d < space_.dimensions(); ++d)
        for (const std::size_t rank : {at[d] - step, at[d] + step})  // below 0 wraps past the extent
          if (const std::optional<std::size_t> c = Unvisited(at, {{d, rank}})) return c;
    for (std::size_t d = 0; d < space_.dimensions(); ++d)
      for (std::size_t e = d + 1; e < space_.dimensions(); ++e)
        for (const std::size_t rank_d : {at[d] - 1, at[d] + 1})
          for (const std::size_t rank_e : {at[e] - 1, at[e] + 1})
            if (const std::optional<std::size_t> c = Unvisited(at, {{d, rank_d}, {e, rank_e}})) return c;
    return std::nullopt;
  }

  // The candidate at `at` with the coordinates of `moves` (dimension, rank) changed, if it exists
  // and is unvisited.
  std::optional<std::size_t> Unvisited(std::vector<std::size_t> at,
                                       std::initializer_list<std::pair<std::size_t, std::size_t>> moves) const {
    for (const auto& [d, rank] : moves) {
      if (rank >= space_.Extent(d)) return std::nullopt;
      at[d] = rank;
    }
    const std::optional<std::size_t> c = space_.Find(at);
    return c && !Visited(*c) ? c : std::nullopt;
  }

  bool AwaitsResults() const override { return polishing_ && !Pending().empty(); }

  std::optional<std::size_t> Propose() override {
    if (polishing_ || (Best() && SinceImprovement() >= patience_) || xs_.size() >= kMaxObservations) return Polish();
    // The initial design counts the candidates in flight (a compile look-ahead's, tune --strategy
    // auto's estimate sample); the model proposes once two of them have passed.
    if (!slowest_ || xs_.size() < 2 || xs_.size() + Pending().size() < kInitialSamples) return RandomUnvisited();
    if (!model_ || xs_.size() >= next_refit_) Refit();
    double log_scale = 1;
    const GaussianProcess::Posterior posterior = LogTimePosterior(&log_scale);
    const double best = posterior.observed.minCoeff();
    const std::vector<Eigen::VectorXd> pending = PendingPoints();
    std::optional<std::size_t> chosen;
    double chosen_score = -1, greatest_improvement = 0;
    for (std::size_t i = 0; i < pool_.size(); ++i) {
      if (Visited(pool_[i])) continue;
      const auto k = static_cast<Eigen::Index>(i);
        const double improvement = ExpectedImprovement(posterior.mean[k], posterior.sd[k], best);
      greatest_improvement = std::max(greatest_improvement, improvement);
      const double score = improvement * PendingPenalty(pool_[i], pending);
      if (score > chosen_score) {  // ties: the first in enumeration order
        chosen_score = score;
        chosen = pool_[i];
      }
    }
    // An expected improvement of d in log time is a time expected 1 - e^-d below the best. The model
    // is believed only after kMinPatience evaluations without a better time: believed at once, it
    // ended searches of the community's spaces right after a few similar candidates
    // (bench/benchmarks.md).
    if (min_expected_gain_ > 0 && chosen && SinceImprovement() >= kMinPatience &&
        1 - std::exp(-greatest_improvement * log_scale) < min_expected_gain_)
      return Polish();
    return chosen ? chosen : RandomUnvisited();  // the pool is spent: outside it
  }

  CandidateGraph space_;
  std::size_t patience_;
  double min_expected_gain_;         // 0: no stop by the expected gain
  std::vector<std::size_t> pool_;    // the candidates the model scores, ascending
  std::vector<Eigen::VectorXd> xs_;  // the model's observations
  std::vector<double> ys_;
  std::vector<std::size_t> failed_;  // failed before any candidate passed: not yet in the model
  std::optional<double> slowest_;    // the largest log time that passed
  LengthScales scales_;  // the model's, chosen at each refit
  std::unique_ptr<GaussianProcess> model_;
  std::size_t next_refit_ = 0;
  bool polishing_ = false;  // the model stopped: only the lines through the fastest candidate are left
};

}  // namespace

std::unique_ptr<SearchStrategy> MakeBayesian(CandidateGraph space, const StrategyOptions& options) {
  return std::make_unique<BayesianOptimisation>(std::move(space), options);
}

}  // namespace tuner
