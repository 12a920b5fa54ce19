// Statistics of repeated timings: the median is what is compared, the spread says how steady
// the samples were.
#pragma once

#include <vector>

namespace tuner {

struct SampleStats {
  double median = 0;
  double min = 0;
  double max = 0;
  double spread = 0;  // (p75 - p25) / median
  int count = 0;
  // Launches each sample timed together (its time is per launch): 1 isolated, the batch's in the
  // back_to_back and graph modes (measure/launch_batch.h). Summarise leaves it 1; the session sets it.
  int launches_per_sample = 1;
};

SampleStats Summarise(std::vector<double> samples);

}  // namespace tuner
