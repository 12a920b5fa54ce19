#include "base/timing_mode.h"

namespace tuner {

const char* ToText(TimingMode mode) {
  switch (mode) {
    case TimingMode::kIsolated:
      return "isolated";
    case TimingMode::kBackToBack:
      return "back_to_back";
    case TimingMode::kGraph:
      return "graph";
  }
  return "isolated";
}

std::optional<TimingMode> TimingModeFromText(const std::string& text) {
  for (TimingMode mode : kAllTimingModes)
    if (text == ToText(mode)) return mode;
  return std::nullopt;
}

std::string TimingModeChoices() { return "isolated, back_to_back or graph"; }

}  // namespace tuner
