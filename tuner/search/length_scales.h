// A length scale per parameter for the Bayesian strategy's Gaussian process (automatic relevance
// determination): a parameter the time hardly depends on gets a long scale, one it depends on
// sharply a short one, chosen by the likelihood of the observations. One scale for every
// parameter (the isotropic kernel) treated a flag that decides the time and a block size that
// barely matters alike, and the model then spread its proposals over the wrong parameters.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "search/gaussian_process.h"

namespace tuner {

struct LengthScales {
  Eigen::VectorXd inverse;  // per coordinate, 1 / its length scale: the points are scaled by it
  double noise = 1e-3;      // the observation noise, as GpHyper has it
  double isotropic = 0.5;   // the one scale for all that the search started from
};

// Starting from the most likely of `grid` (one scale for all coordinates), each coordinate's scale
// in turn is multiplied by the factor, of a few from a quarter to eight, under which the
// observations are most likely; two rounds. `xs`: the observed points, each coordinate in [0, 1].
// Throws std::invalid_argument without observations, as MostLikelyHyper does.
LengthScales MostLikelyLengthScales(const std::vector<GpHyper>& grid, const std::vector<Eigen::VectorXd>& xs,
                                    const std::vector<double>& ys);

// `x` scaled coordinate by coordinate: a Gaussian process of length scale 1 over the scaled points
// is the process of the scales over the points.
inline Eigen::VectorXd Scaled(const Eigen::VectorXd& x, const LengthScales& scales) {
  return x.cwiseProduct(scales.inverse);
}

}  // namespace tuner
