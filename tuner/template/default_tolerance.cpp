#include "template/default_tolerance.h"

#include <algorithm>
#include <sstream>

namespace tuner {

namespace {

std::string Text(double value) {
  std::ostringstream text;
  text.precision(17);
  text << value;
  return text.str();
}

}  // namespace

double CoarsestOutputEpsilon(const std::vector<ArgSpec>& args) {
  double epsilon = 0;
  for (const ArgSpec& arg : args)
    if (arg.is_buffer && arg.output) epsilon = std::max(epsilon, Element(arg.type).epsilon);
  return epsilon;
}

std::string DefaultRtol(const std::vector<ArgSpec>& args) {
  return Text(std::max(kDefaultRtolFloor, kEpsilonFactor * CoarsestOutputEpsilon(args)));
}

std::string DefaultAtol(const std::vector<ArgSpec>& args, const std::string& reduction) {
  const double per_rounding = kEpsilonFactor * CoarsestOutputEpsilon(args);
  if (reduction.empty() || per_rounding == 0) return "0";
  return Text(per_rounding) + " * sqrt(" + reduction + ")";
}

double MaxRtol(const std::vector<ArgSpec>& args) { return std::max(0.1, kEpsilonFactor * CoarsestOutputEpsilon(args)); }

}  // namespace tuner
