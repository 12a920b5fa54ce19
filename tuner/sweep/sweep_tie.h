// A sweep's tie (db/query/tie_rule.h): once its leaders are timed in turns, the leaders within the
// noise of the fastest are a tie, and the rule chooses among them.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "db/query/records.h"
#include "sweep/leaders.h"
#include "template/search_space.h"

namespace tuner {

// The leaders' records stamped with their place in the tie, each with its index in `measured` (this
// run's records); empty when there is no tie among the leaders this run timed in turns, or when a
// leader it did not time in turns is faster than all of them. Their
// order in the template is their place in `enumeration` (every candidate, as enumerated).
std::vector<std::pair<std::size_t, db::MeasurementRecord>> StampedTie(
    const std::vector<db::MeasurementRecord>& measured, const std::vector<Leader>& leaders,
    const std::vector<ParamValues>& enumeration);

}  // namespace tuner
