#include "search/isotonic_regression.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tuner {

namespace {

struct Block {
  double sum = 0, weight = 0;
  std::size_t first = 0, last = 0;  // the pooled points, inclusive
  double Mean() const { return sum / weight; }
};

}  // namespace

DecreasingIsotonicFit::DecreasingIsotonicFit(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || x.size() != y.size()) throw std::invalid_argument("isotonic regression needs points, x and y alike");
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> weights;
  for (const std::size_t i : order) {
    if (!x_.empty() && x_.back() == x[i]) {
      y_.back() += y[i];
      weights.back() += 1;
    } else {
      x_.push_back(x[i]);
      y_.push_back(y[i]);
      weights.push_back(1);
    }
  }
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < x_.size(); ++i) {
    blocks.push_back({y_[i], weights[i], i, i});
    // Non-increasing: a block above the one before it is pooled with it.
    while (blocks.size() > 1 && blocks[blocks.size() - 2].Mean() < blocks.back().Mean()) {
      Block merged = blocks[blocks.size() - 2];
      merged.sum += blocks.back().sum;
      merged.weight += blocks.back().weight;
      merged.last = blocks.back().last;
      blocks.pop_back();
      blocks.back() = merged;
    }
  }
  for (const Block& b : blocks)
    for (std::size_t i = b.first; i <= b.last; ++i) y_[i] = b.Mean();
}

double DecreasingIsotonicFit::Predict(double x) const {
  if (x <= x_.front()) return y_.front();
  if (x >= x_.back()) return y_.back();
  const std::size_t k = static_cast<std::size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin()) - 1;
  const double t = (x - x_[k]) / (x_[k + 1] - x_[k]);
  return y_[k] + t * (y_[k + 1] - y_[k]);
}

}  // namespace tuner
