// Per-parameter length scales chosen by the likelihood: a coordinate the observations do not depend
// on gets a longer scale than one they do, and a coordinate that never varies keeps its start.
#include <gtest/gtest.h>

#include <cmath>

#include "search/length_scales.h"

namespace tuner {
namespace {

const std::vector<GpHyper> kGrid = {{0.3, 1e-3}, {0.5, 1e-3}, {0.8, 1e-3}, {1.2, 1e-3}};

// A 7 x 7 grid over coordinates 0 and 1, coordinate 2 fixed at 0.5; y from coordinate 0 only.
void GridObservations(std::vector<Eigen::VectorXd>* xs, std::vector<double>* ys) {
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      Eigen::VectorXd x(3);
      x << i / 6.0, j / 6.0, 0.5;
      xs->push_back(x);
      ys->push_back(std::sin(6 * x[0]));
    }
}

TEST(LengthScales, AnIrrelevantCoordinateGetsALongerScale) {
  std::vector<Eigen::VectorXd> xs;
  std::vector<double> ys;
  GridObservations(&xs, &ys);
  const LengthScales s = MostLikelyLengthScales(kGrid, xs, ys);
  ASSERT_EQ(s.inverse.size(), 3);
  EXPECT_LT(s.inverse[1] * 4, s.inverse[0]) << s.inverse.transpose();  // at least four times longer
  const GpHyper isotropic = MostLikelyHyper(kGrid, xs, ys);
  EXPECT_DOUBLE_EQ(s.inverse[2], 1 / isotropic.length_scale);  // never varies: left as it started
  EXPECT_DOUBLE_EQ(s.noise, isotropic.noise);
  EXPECT_DOUBLE_EQ(s.isotropic, isotropic.length_scale);
}

TEST(LengthScales, ScaledMultipliesCoordinateByCoordinate) {
  LengthScales s;
  s.inverse = Eigen::Vector2d(2, 0.5);
  EXPECT_TRUE(Scaled(Eigen::Vector2d(0.25, 1), s).isApprox(Eigen::Vector2d(0.5, 0.5)));
}

TEST(LengthScales, NoObservationsIsAnError) {
  EXPECT_THROW(MostLikelyLengthScales(kGrid, {}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace tuner
