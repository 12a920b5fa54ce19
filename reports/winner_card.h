// Why the best configuration of a run won, in the hardware's terms: it against every correct
// candidate that differs from it in one parameter, each comparison naming the counter that differs
// most in the winner's favour ("PAD=1: 0.07 shared-memory bank conflicts per request against 15.7 for
// PAD=0; 1.61x faster"), and how far it is from the hardware's limit.
#pragma once

#include <string>
#include <vector>

#include "reports/report_data.h"

namespace tuner::report {

struct NeighbourComparison {
  std::string parameter;
  std::string winner_value;
  std::string other_value;
  double speedup = 0;       // the other's time over the winner's
  std::string counter_key;  // "" when no counter of both explains it
  double winner_counter = 0;
  double other_counter = 0;
  std::string sentence;
};

struct WinnerCard {
  std::string params;                           // the winner's, with value names
  std::vector<NeighbourComparison> neighbours;  // largest speedup first
  std::string counters;  // the winner's own counters and stalls in one line ("" when not measured)
  // Its speed of light: "memory-bound: DRAM 93% of peak, at the limit (SM 21%, DRAM 93%, L2 48%, L1 35%)"
  // ("" when not counted, or counted by a version without it).
  std::string headroom;
  std::string energy;    // "0.124 J per launch at 603 W, 4.43 GB/J" ("" when not measured)
};

// The card of a run's best candidate; empty neighbours when it has none (or no best).
WinnerCard MakeWinnerCard(const Run& run);

// The counter of db::CounterFields() whose values differ most, relatively, in the winner's favour
// (lower where lower is better, else higher), if any differs by more than 10% and by more than its
// field's least_difference: its key.
std::string ExplainingCounter(const std::string& winner_counters_json, const std::string& other_counters_json);

}  // namespace tuner::report
