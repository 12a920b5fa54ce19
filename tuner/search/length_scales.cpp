#include "search/length_scales.h"

#include <cmath>

namespace tuner {

namespace {

constexpr int kRounds = 2;
const double kFactors[] = {0.25, 0.5, 2.0, 8.0};  // 8: as good as irrelevant on [0, 1]

double Likelihood(const std::vector<Eigen::VectorXd>& xs, const std::vector<double>& ys, const LengthScales& s) {
  GaussianProcess gp(Eigen::MatrixXd(xs.front().size(), 0), {1.0, s.noise});
  for (std::size_t i = 0; i < xs.size(); ++i) gp.Add(Scaled(xs[i], s), ys[i]);
  return gp.LogMarginalLikelihood();
}

// Whether the observations differ in coordinate d (a fixed parameter's scale changes nothing).
bool Varies(const std::vector<Eigen::VectorXd>& xs, Eigen::Index d) {
  for (const Eigen::VectorXd& x : xs)
    if (x[d] != xs.front()[d]) return true;
  return false;
}

}  // namespace

LengthScales MostLikelyLengthScales(const std::vector<GpHyper>& grid, const std::vector<Eigen::VectorXd>& xs,
                                    const std::vector<double>& ys) {
  const GpHyper isotropic = MostLikelyHyper(grid, xs, ys);
  LengthScales best{Eigen::VectorXd::Constant(xs.front().size(), 1 / isotropic.length_scale), isotropic.noise,
                    isotropic.length_scale};
  double best_likelihood = Likelihood(xs, ys, best);
  for (int round = 0; round < kRounds; ++round)
    for (Eigen::Index d = 0; d < best.inverse.size(); ++d) {
      if (!Varies(xs, d)) continue;
      const LengthScales start = best;
      for (const double factor : kFactors) {
        LengthScales trial = start;
        trial.inverse[d] /= factor;
        const double likelihood = Likelihood(xs, ys, trial);
        if (likelihood > best_likelihood) {
          best_likelihood = likelihood;
          best = trial;
        }
      }
    }
  return best;
}

}  // namespace tuner
