#include "base/percent_text.h"

#include <cstdio>

namespace tuner {

namespace {

std::string Formatted(const char* format, int precision, double percent) {
  char text[64];
  std::snprintf(text, sizeof text, format, precision, percent);
  return text;
}

}  // namespace

std::string PercentText(double fraction, int decimals) { return Formatted("%.*f%%", decimals, fraction * 100.0); }

std::string PercentTextSignificant(double fraction, int significant_digits) {
  return Formatted("%.*g%%", significant_digits, fraction * 100.0);
}

std::string PercentOf(double part, double whole, int decimals) {
  return whole > 0 ? Formatted("%.*f%%", decimals, 100 * part / whole) : "-";
}

}  // namespace tuner
