#include "db/model_sweep.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "db/query/best.h"
#include "db/row_json.h"

namespace tuner::db {

namespace {

// A candidate's identity whatever spacing its stored parameters have (cards merged from other
// databases wrote them too).
std::string Identity(const std::string& params_json) {
  const nlohmann::ordered_json parsed = ParseStoredJson(params_json);
  return parsed.is_object() ? parsed.dump() : params_json;
}

// The model, the UUID of a card apart, the template hash and the size.
using SweepKey = std::tuple<GpuModel, std::string, std::string, std::string>;

// Adds `row` to its sweep: a candidate met before keeps the row that stands before.
void AddRow(ModelSweep& sweep, std::map<std::string, std::size_t>& by_candidate, const MeasurementRow& row) {
  if (std::find(sweep.cards.begin(), sweep.cards.end(), row.gpu.uuid) == sweep.cards.end())
    sweep.cards.push_back(row.gpu.uuid);
  const auto [found, added] = by_candidate.emplace(Identity(row.measurement.params_json), sweep.rows.size());
  if (added) {
    sweep.rows.push_back(row);
  } else if (StandsBefore(row.measurement, sweep.rows[found->second].measurement)) {
    sweep.set_aside.push_back(std::move(sweep.rows[found->second]));
    sweep.rows[found->second] = row;
  } else {
    sweep.set_aside.push_back(row);
  }
}

}  // namespace

bool StandsBefore(const MeasurementRecord& a, const MeasurementRecord& b) {
  const bool a_ok = IsOk(a.status), b_ok = IsOk(b.status);
  if (a_ok != b_ok) return a_ok;
  if (a_ok) return FasterRecord(a, b);
  const bool a_skipped = a.status == CandidateStatus::kSkipped, b_skipped = b.status == CandidateStatus::kSkipped;
  if (a_skipped != b_skipped) return b_skipped;
  return a.id > b.id;
}

std::vector<ModelSweep> SweepsPerModel(const std::vector<MeasurementRow>& rows,
                                       const std::function<bool(const GpuRecord&)>& apart) {
  std::map<SweepKey, std::size_t> index;
  std::vector<ModelSweep> sweeps;
  std::vector<std::map<std::string, std::size_t>> candidates;  // per sweep: identity -> its row
  for (const MeasurementRow& row : rows) {
    const SweepKey key{ModelOf(row.gpu), apart && apart(row.gpu) ? row.gpu.uuid : "", row.templ.hash, row.size_key};
    const auto [found, added] = index.emplace(key, sweeps.size());
    if (added) {
      sweeps.push_back({row.gpu, {}, row.templ.hash, row.size_key, {}, {}});
      candidates.emplace_back();
    }
    AddRow(sweeps[found->second], candidates[found->second], row);
  }
  for (ModelSweep& sweep : sweeps) {
    std::sort(sweep.cards.begin(), sweep.cards.end());
    if (sweep.cards.size() > 1) sweep.gpu.uuid.clear();
  }
  return sweeps;
}

std::string CardsText(const std::vector<std::string>& cards) {
  if (cards.size() == 1) return cards.front();
  std::string text = std::to_string(cards.size()) + " cards: ";
  for (std::size_t i = 0; i < cards.size(); ++i) text += (i ? ", " : "") + cards[i];
  return text;
}

}  // namespace tuner::db
