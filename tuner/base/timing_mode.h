// How a candidate's launches are timed (`tune --timing`, a template's [timing] mode), as the store,
// the worker protocol and the outputs name it. Results of different modes are never compared: the
// store keeps the mode of every measurement, and every ranking is made within one mode.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tuner {

enum class TimingMode {
  kIsolated,    // L2 flushed, one launch between two events: the cold-cache time of one call
  kBackToBack,  // N launches on one stream between two events, nothing between them; time / N
  kGraph,       // N launches captured into a CUDA graph, one replay between two events; time / N
};

inline constexpr TimingMode kAllTimingModes[] = {TimingMode::kIsolated, TimingMode::kBackToBack, TimingMode::kGraph};

// "isolated", "back_to_back", "graph": the text the store, the options and the JSON hold.
const char* ToText(TimingMode mode);
// The mode this text names, or none.
std::optional<TimingMode> TimingModeFromText(const std::string& text);
// "isolated, back_to_back or graph": for messages.
std::string TimingModeChoices();

}  // namespace tuner
