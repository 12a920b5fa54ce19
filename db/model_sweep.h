// Sweeps are per GPU model: the cards of one model share its candidates (`tune --gpus`, `--shard`
// and `db merge`), so their rows of one template version and size are one sweep, whichever card
// measured which part. What `tuner simulate` replays and `tuner report` shows of them: the union of
// the cards' candidates, each with the result of the card that measured it; where several did, one
// rule: an ok result before a failure, of ok ones the best by db/query/best.h, of failures a real
// outcome before `skipped`, then the one stored last (as a resume reads the model's results).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "db/query/gpu_model.h"
#include "db/query/store.h"

namespace tuner::db {

// The rows of one model's sweep of one template version at one size.
struct ModelSweep {
  GpuRecord gpu;                   // the card's when one card holds it all, else the model (no UUID)
  std::vector<std::string> cards;  // the UUIDs of the cards that measured part of it, ascending
  std::string template_hash;
  std::string size_key;
  std::vector<MeasurementRow> rows;       // one per candidate, in the order first met
  std::vector<MeasurementRow> set_aside;  // the other cards' results of those candidates
};

// Whether result `a` of a candidate stands for the model before result `b` of the same candidate.
bool StandsBefore(const MeasurementRecord& a, const MeasurementRecord& b);

// `rows` (any cards, models, template versions and sizes) as one sweep per (model, version, size),
// in the order each was first met. A card `apart` says is a sweep of its own (published results
// imported as a card: never mixed with measured ones).
std::vector<ModelSweep> SweepsPerModel(const std::vector<MeasurementRow>& rows,
                                       const std::function<bool(const GpuRecord&)>& apart = nullptr);

// "GPU-1111" or "2 cards: GPU-1111, GPU-2222": the cards of a sweep in output.
std::string CardsText(const std::vector<std::string>& cards);

}  // namespace tuner::db
