// The Gaussian process of Bayesian optimisation: its incremental posterior against the textbook
// formulas, its likelihood, and the choice of hyperparameters.
#include "search/gaussian_process.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace tuner {
namespace {

double Matern52(double distance, double length_scale) {
  const double s = std::sqrt(5.0) * distance / length_scale;
  return (1 + s + s * s / 3) * std::exp(-s);
}

Eigen::MatrixXd RandomPoints(int dims, int count, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Eigen::MatrixXd points(dims, count);
  for (int c = 0; c < count; ++c)
    for (int d = 0; d < dims; ++d) points(d, c) = unit(engine);
  return points;
}

Eigen::MatrixXd Covariance(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double length_scale) {
  Eigen::MatrixXd k(a.cols(), b.cols());
  for (Eigen::Index i = 0; i < a.cols(); ++i)
    for (Eigen::Index j = 0; j < b.cols(); ++j) k(i, j) = Matern52((a.col(i) - b.col(j)).norm(), length_scale);
  return k;
}

Eigen::VectorXd Standardise(const Eigen::VectorXd& y) {
  const double mean = y.mean();
  const double sd = std::sqrt((y.array() - mean).square().mean());
  return (y.array() - mean) / sd;
}

TEST(GaussianProcess, IncrementalPosteriorEqualsTheTextbookFormulas) {
  const GpHyper hyper{0.7, 1e-2};
  const Eigen::MatrixXd pool = RandomPoints(3, 40, 1), observed = RandomPoints(3, 25, 2);  // 25 > the first capacity
  Eigen::VectorXd y(observed.cols());
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = std::sin(4 * observed(0, i)) + observed(1, i) * observed(2, i);
  GaussianProcess gp(pool, hyper);
  for (Eigen::Index i = 0; i < y.size(); ++i) gp.Add(observed.col(i), y[i]);
  const GaussianProcess::Posterior posterior = gp.Predict();

  const Eigen::VectorXd z = Standardise(y);
  const Eigen::MatrixXd k = Covariance(observed, observed, hyper.length_scale) +
                            hyper.noise * Eigen::MatrixXd::Identity(observed.cols(), observed.cols());
  const Eigen::MatrixXd cross = Covariance(pool, observed, hyper.length_scale);
  const Eigen::LLT<Eigen::MatrixXd> llt(k);
  const Eigen::VectorXd mean = cross * llt.solve(z);
  const Eigen::VectorXd variance = (1 - (cross * llt.solve(cross.transpose())).diagonal().array()).matrix();
  ASSERT_EQ(posterior.mean.size(), 40);
  for (Eigen::Index j = 0; j < 40; ++j) {
    EXPECT_NEAR(posterior.mean[j], mean[j], 1e-9) << j;
    EXPECT_NEAR(posterior.sd[j], std::sqrt(variance[j]), 1e-9) << j;
  }
  EXPECT_NEAR((posterior.observed - z).norm(), 0, 1e-12);

  const double likelihood = -0.5 * z.dot(llt.solve(z)) - 0.5 * std::log(k.determinant()) -
                            0.5 * static_cast<double>(z.size()) * std::log(2 * M_PI);
  EXPECT_NEAR(gp.LogMarginalLikelihood(), likelihood, 1e-8);
}

TEST(GaussianProcess, ItIsSureWhereItMeasuredAndUnsureFarAway) {
  Eigen::MatrixXd pool(1, 3);
  pool << 0.0, 0.5, 1.0;
  GaussianProcess gp(pool, {0.1, 1e-6});
  Eigen::VectorXd x(1);
  x << 0.0;
  gp.Add(x, 2.0);
  x << 0.5;
  gp.Add(x, 4.0);
  const auto posterior = gp.Predict();
  EXPECT_NEAR(posterior.mean[0], -1, 1e-3);  // standardised: 2 and 4 are -1 and 1
  EXPECT_NEAR(posterior.mean[1], 1, 1e-3);
  EXPECT_LT(posterior.sd[0], 1e-2);
  EXPECT_GT(posterior.sd[2], 0.99);  // ten length scales from anything measured
  EXPECT_NEAR(posterior.mean[2], 0, 1e-3);
}

TEST(GaussianProcess, APointObservedTwiceLeavesOnlyTheNoise) {
  Eigen::MatrixXd pool(2, 1);
  pool << 0.3, 0.3;
  GaussianProcess gp(pool, {0.5, 1e-3});
  for (const double y : {1.0, 1.1, 3.0}) gp.Add(pool.col(0), y);  // the same point three times
  const auto posterior = gp.Predict();
  EXPECT_TRUE(std::isfinite(posterior.mean[0]));
  EXPECT_NEAR(posterior.mean[0], posterior.observed.mean(), 1e-2);
}

TEST(GaussianProcess, MostLikelyHyperFollowsHowFastTheFunctionChanges) {
  const std::vector<GpHyper> grid = {{0.05, 1e-3}, {0.3, 1e-3}, {2.0, 1e-3}};
  std::vector<Eigen::VectorXd> xs;
  std::vector<double> smooth, rough;
  for (int i = 0; i < 30; ++i) {
    xs.push_back(Eigen::VectorXd::Constant(1, i / 29.0));
    smooth.push_back(i / 29.0);
    rough.push_back(i % 2 ? 1.0 : -1.0);  // changes at every step of 1/29
  }
  EXPECT_DOUBLE_EQ(MostLikelyHyper(grid, xs, smooth).length_scale, 2.0);
  EXPECT_DOUBLE_EQ(MostLikelyHyper(grid, xs, rough).length_scale, 0.05);
}

TEST(GaussianProcess, BadArgumentsAreRefused) {
  EXPECT_THROW(GaussianProcess(Eigen::MatrixXd(2, 1), {0, 1e-3}), std::invalid_argument);
  EXPECT_THROW(GaussianProcess(Eigen::MatrixXd(2, 1), {0.5, 0}), std::invalid_argument);
  GaussianProcess gp(Eigen::MatrixXd::Zero(2, 1), {0.5, 1e-3});
  EXPECT_THROW(gp.Add(Eigen::VectorXd::Zero(3), 1.0), std::invalid_argument);
  EXPECT_THROW(MostLikelyHyper({}, {Eigen::VectorXd::Zero(1)}, {1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace tuner
