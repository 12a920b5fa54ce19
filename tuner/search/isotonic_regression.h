// Isotonic regression: the non-increasing step curve closest (least squares) to points (x, y), by
// pooling adjacent violators, predicted between its points by linear interpolation and clipped at
// its ends, as scikit-learn's IsotonicRegression(increasing=False, out_of_bounds="clip") predicts.
// The community's methodology fits each strategy's best-so-far over time with it.
#pragma once

#include <vector>

namespace tuner {

class DecreasingIsotonicFit {
 public:
  // Points of equal x are pooled first (their mean y). Throws std::invalid_argument for no points or
  // x and y of different lengths.
  DecreasingIsotonicFit(const std::vector<double>& x, const std::vector<double>& y);
  double Predict(double x) const;

 private:
  std::vector<double> x_, y_;  // the fitted points, x strictly ascending, y non-increasing
};

}  // namespace tuner
