// Results of different timing modes (records.h: timing_mode) are never compared: `query`, the
// application library and the best-per-GPU rows choose among the rows of one mode. Without a mode
// asked for, each (GPU, template version, size) is served in the mode it was most recently tuned in:
// the mode whose best row was measured last (on equal times, the higher measurement id).
#pragma once

#include <string>
#include <vector>

#include "db/query/store.h"

namespace tuner::db {

// Whether a group is one card's (its UUID) or one model's (db/query/gpu_model.h).
enum class ModeGroup { kCard, kModel };

// The best rows (one per GPU, template version, size and mode) of `mode`; "" : of each group's most
// recently tuned mode. The rows keep their order.
std::vector<MeasurementRow> OneTimingMode(std::vector<MeasurementRow> rows, const std::string& mode,
                                          ModeGroup by = ModeGroup::kCard);

}  // namespace tuner::db
