#include "size_expressions.h"

#include <cstddef>

namespace tuner::capture {

namespace {

constexpr std::size_t kMaxVariables = 12;  // 4096 subsets

// The product of the chosen variables at one size; 0 when it overflows what a length can be.
long long Product(const SizeValues& size, unsigned subset) {
  long long product = 1;
  for (std::size_t i = 0; i < size.size(); ++i)
    if (subset & (1u << i)) {
      if (size[i].second <= 0 || product > (1LL << 62) / size[i].second) return 0;
      product *= size[i].second;
    }
  return product;
}

// The constant m with values[i] == m * product at every size, if there is one.
std::optional<long long> Factor(const std::vector<SizeValues>& sizes, const std::vector<long long>& values,
                                unsigned subset) {
  std::optional<long long> factor;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const long long product = Product(sizes[i], subset);
    if (product == 0 || values[i] % product != 0) return std::nullopt;
    const long long m = values[i] / product;
    if (factor && *factor != m) return std::nullopt;
    factor = m;
  }
  return factor;
}

std::string Expression(const SizeValues& names, unsigned subset, long long factor) {
  std::string text = factor == 1 && subset != 0 ? "" : std::to_string(factor);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (subset & (1u << i)) text += (text.empty() ? "" : " * ") + names[i].first;
  return text;
}

std::vector<unsigned> SubsetsBySize(std::size_t variables) {
  std::vector<unsigned> subsets;
  for (std::size_t count = 0; count <= variables; ++count)
    for (unsigned subset = 0; subset < (1u << variables); ++subset)
      if (static_cast<std::size_t>(__builtin_popcount(subset)) == count) subsets.push_back(subset);
  return subsets;
}

}  // namespace

std::optional<std::string> ProductOfSizes(const std::vector<SizeValues>& sizes, const std::vector<long long>& values) {
  if (sizes.empty() || sizes.size() != values.size() || sizes[0].size() > kMaxVariables) return std::nullopt;
  const std::vector<unsigned> subsets = SubsetsBySize(sizes[0].size());
  for (const bool plain : {true, false})
    for (const unsigned subset : subsets) {
      if (plain && subset == 0) continue;
      const auto factor = Factor(sizes, values, subset);
      if (factor && (!plain || *factor == 1) && (*factor != 0 || subset == 0))
        return Expression(sizes[0], subset, *factor);
    }
  return std::nullopt;
}

}  // namespace tuner::capture
