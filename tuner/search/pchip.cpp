#include "search/pchip.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tuner {

namespace {

int Sign(double v) { return (v > 0) - (v < 0); }

// The slope at an end, from the two intervals next to it (SciPy's three-point rule, kept monotone).
double EdgeSlope(double h0, double h1, double m0, double m1) {
  const double d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
  if (Sign(d) != Sign(m0)) return 0;
  if (Sign(m0) != Sign(m1) && std::fabs(d) > 3 * std::fabs(m0)) return 3 * m0;
  return d;
}

std::vector<double> Slopes(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  std::vector<double> h(n - 1), m(n - 1), d(n);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    h[k] = x[k + 1] - x[k];
    m[k] = (y[k + 1] - y[k]) / h[k];
  }
  if (n == 2) return {m[0], m[0]};
  for (std::size_t k = 1; k + 1 < n; ++k) {
    if (Sign(m[k - 1]) != Sign(m[k]) || m[k - 1] == 0 || m[k] == 0) {
      d[k] = 0;
      continue;
    }
    const double w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1];  // the weighted harmonic mean
    d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k]);
  }
  d[0] = EdgeSlope(h[0], h[1], m[0], m[1]);
  d[n - 1] = EdgeSlope(h[n - 2], h[n - 3], m[n - 2], m[n - 3]);
  return d;
}

double Hermite(double x0, double x1, double y0, double y1, double d0, double d1, double at) {
  if (at == x1) return y1;  // the points themselves exactly, not to rounding
  const double h = x1 - x0, t = (at - x0) / h;
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * h * d0 + (-2 * t3 + 3 * t2) * y1 + (t3 - t2) * h * d1;
}

}  // namespace

std::vector<double> PchipInterpolate(const std::vector<double>& x, const std::vector<double>& y,
                                     const std::vector<double>& at) {
  if (x.size() < 2 || x.size() != y.size())
    throw std::invalid_argument("PCHIP needs two or more points, x and y alike");
  for (std::size_t k = 0; k + 1 < x.size(); ++k)
    if (!(x[k] < x[k + 1])) throw std::invalid_argument("PCHIP needs strictly ascending x");
  const std::vector<double> d = Slopes(x, y);
  std::vector<double> values;
  values.reserve(at.size());
  for (const double a : at) {
    if (a < x.front() || a > x.back()) throw std::invalid_argument("PCHIP evaluated outside its points");
    const std::size_t k = std::min<std::size_t>(
        static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), a) - x.begin()) - 1, x.size() - 2);
    values.push_back(Hermite(x[k], x[k + 1], y[k], y[k + 1], d[k], d[k + 1], a));
  }
  return values;
}

}  // namespace tuner
