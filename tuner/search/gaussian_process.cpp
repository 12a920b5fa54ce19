#include "search/gaussian_process.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tuner {

namespace {

constexpr double kMinVariance = 1e-12;
constexpr std::size_t kFirstCapacity = 16;

}  // namespace

GaussianProcess::GaussianProcess(Eigen::MatrixXd pool, GpHyper hyper)
    : pool_(std::move(pool)),
      hyper_(hyper),
      observed_(pool_.rows(), kFirstCapacity),
      lower_(kFirstCapacity, kFirstCapacity),
      cross_(pool_.cols(), kFirstCapacity),
      explained_(Eigen::VectorXd::Zero(pool_.cols())) {
  if (!(hyper.length_scale > 0) || !(hyper.noise > 0))
    throw std::invalid_argument("a Gaussian process needs a positive length scale and noise");
}

double GaussianProcess::Kernel(double distance) const {
  const double s = std::sqrt(5.0) * distance / hyper_.length_scale;
  return (1 + s + s * s / 3) * std::exp(-s);
}

Eigen::VectorXd GaussianProcess::KernelTo(const Eigen::MatrixXd& points, std::size_t count,
                                          const Eigen::VectorXd& x) const {
  const Eigen::Index n = static_cast<Eigen::Index>(count);
  Eigen::VectorXd k(n);
  for (Eigen::Index j = 0; j < n; ++j) k[j] = Kernel((points.col(j) - x).norm());
  return k;
}

Eigen::VectorXd GaussianProcess::SolveLower(const Eigen::VectorXd& rhs) const {
  const Eigen::Index n = rhs.size();
  if (n == 0) return rhs;
  return lower_.topLeftCorner(n, n).triangularView<Eigen::Lower>().solve(rhs);
}

void GaussianProcess::Add(const Eigen::VectorXd& x, double y) {
  if (x.size() != pool_.rows()) throw std::invalid_argument("a point of the wrong dimension for this Gaussian process");
  const Eigen::Index n = static_cast<Eigen::Index>(size());
  if (n == observed_.cols()) {  // amortised growth: the factor and the cross terms keep their values
    const Eigen::Index capacity = 2 * n;
    observed_.conservativeResize(Eigen::NoChange, capacity);
    lower_.conservativeResize(capacity, capacity);
    cross_.conservativeResize(Eigen::NoChange, capacity);
  }
  const Eigen::VectorXd l = SolveLower(KernelTo(observed_, static_cast<std::size_t>(n), x));
  // The new pivot; a point (nearly) observed before leaves only the noise, never below zero.
  const double pivot = std::sqrt(std::max(1 + hyper_.noise - l.squaredNorm(), kMinVariance));
  lower_.row(n).head(n) = l.transpose();
  lower_(n, n) = pivot;
  if (pool_.cols() > 0) {
    const Eigen::VectorXd to_pool = KernelTo(pool_, static_cast<std::size_t>(pool_.cols()), x);
    cross_.col(n) = (to_pool - cross_.leftCols(n) * l) / pivot;
    explained_ += cross_.col(n).cwiseAbs2();
  }
  observed_.col(n) = x;
  y_.push_back(y);
}

Eigen::VectorXd GaussianProcess::Standardised() const {
  const Eigen::Index n = static_cast<Eigen::Index>(size());
  const Eigen::Map<const Eigen::VectorXd> y(y_.data(), n);
  if (n == 0) return Eigen::VectorXd();
  const double mean = y.mean();
  const double sd = std::sqrt((y.array() - mean).square().mean());
  return (y.array() - mean) / (sd > 1e-12 ? sd : 1.0);
}

GaussianProcess::Posterior GaussianProcess::Predict() const {
  Posterior posterior;
  posterior.observed = Standardised();
  const Eigen::VectorXd weights = SolveLower(posterior.observed);
  posterior.mean = cross_.leftCols(weights.size()) * weights;
  posterior.sd = (1 - explained_.array()).max(kMinVariance).sqrt();
  return posterior;
}

double GaussianProcess::LogMarginalLikelihood() const {
  const Eigen::VectorXd weights = SolveLower(Standardised());
  const Eigen::Index n = weights.size();
  const double log_det = lower_.topLeftCorner(n, n).diagonal().array().log().sum();
  return -0.5 * weights.squaredNorm() - log_det - 0.5 * static_cast<double>(n) * std::log(2 * M_PI);
}

GpHyper MostLikelyHyper(const std::vector<GpHyper>& grid, const std::vector<Eigen::VectorXd>& xs,
                        const std::vector<double>& ys) {
  if (grid.empty() || xs.size() != ys.size() || xs.empty())
    throw std::invalid_argument("choosing hyperparameters needs a grid and observations");
  GpHyper best = grid.front();
  double best_likelihood = -HUGE_VAL;
  for (const GpHyper& hyper : grid) {
    GaussianProcess gp(Eigen::MatrixXd(xs.front().size(), 0), hyper);
    for (std::size_t i = 0; i < xs.size(); ++i) gp.Add(xs[i], ys[i]);
    const double likelihood = gp.LogMarginalLikelihood();
    if (likelihood > best_likelihood) {
      best_likelihood = likelihood;
      best = hyper;
    }
  }
  return best;
}

}  // namespace tuner
