// A Gaussian process over a fixed pool of points, for Bayesian optimisation over the candidates of
// a search space: a Matérn 5/2 kernel of one length scale with observation noise, on observations
// standardised to mean 0 and variance 1. Observations are added one at a time; the Cholesky factor
// grows by one row and the posterior over the pool is kept up to date at O(n * pool) per
// observation, so that scoring every candidate after each evaluation stays cheap.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <vector>

namespace tuner {

struct GpHyper {
  double length_scale = 0.5;
  double noise = 1e-3;  // variance, relative to the standardised observations' 1
};

class GaussianProcess {
 public:
  // `pool`: one column per point, each coordinate in [0, 1]. May have no columns (only the
  // likelihood is wanted).
  GaussianProcess(Eigen::MatrixXd pool, GpHyper hyper);

  void Add(const Eigen::VectorXd& x, double y);
  std::size_t size() const { return y_.size(); }
  const GpHyper& hyper() const { return hyper_; }
  // The kernel's correlation of two points' values, in (0, 1].
  double Correlation(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const { return Kernel((a - b).norm()); }

  // The posterior at every pool point, in standardised units, and the standardised observations.
  struct Posterior {
    Eigen::VectorXd mean, sd;
    Eigen::VectorXd observed;  // in the order added
  };
  Posterior Predict() const;

  // log p(y | hyper) of the standardised observations.
  double LogMarginalLikelihood() const;

 private:
  double Kernel(double distance) const;
  Eigen::VectorXd KernelTo(const Eigen::MatrixXd& points, std::size_t count, const Eigen::VectorXd& x) const;
  Eigen::VectorXd Standardised() const;
  Eigen::VectorXd SolveLower(const Eigen::VectorXd& rhs) const;  // L^-1 rhs

  Eigen::MatrixXd pool_;
  GpHyper hyper_;
  std::vector<double> y_;
  Eigen::MatrixXd observed_;   // one column per observation (capacity grows by doubling)
  Eigen::MatrixXd lower_;      // the Cholesky factor of K + noise I, size() x size() used
  Eigen::MatrixXd cross_;      // L^-1 K(observed, pool), size() rows used
  Eigen::VectorXd explained_;  // per pool point, the squared norm of its column of cross_
};

// The hyperparameters of `grid` under which the observations are most likely (the first of equal ones).
GpHyper MostLikelyHyper(const std::vector<GpHyper>& grid, const std::vector<Eigen::VectorXd>& xs,
                        const std::vector<double>& ys);

}  // namespace tuner
