#include "db/query/selection.h"

#include "db/query/best.h"
#include "db/query/gpu_model.h"
#include "db/query/imported_gpu.h"
#include "base/number_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace tuner::db {

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// An imported model's architecture is unknown (0.0): it is the same as none.
bool SameArchitecture(const GpuRecord& a, const GpuRecord& b) {
  return a.cc_major > 0 && a.cc_major == b.cc_major && a.cc_minor == b.cc_minor;
}

std::string GpuLabel(const GpuRecord& gpu) { return gpu.name + " (" + gpu.uuid + ")"; }

}  // namespace

const char* ToString(Fallback fallback) {
  switch (fallback) {
    case Fallback::kExact:
      return "exact";
    case Fallback::kNearestSize:
      return "nearest_size";
    case Fallback::kSameModel:
      return "same_model";
    case Fallback::kSameArchitecture:
      return "same_architecture";
  }
  return "?";
}

const char* ToString(LookupStatus status) {
  switch (status) {
    case LookupStatus::kFound:
      return "found";
    case LookupStatus::kOnlyStale:
      return "only_stale";
    case LookupStatus::kNotFound:
      return "not_found";
  }
  return "?";
}

BestRows::BestRows(std::vector<MeasurementRow> rows) : rows_(std::move(rows)) {
  sizes_.reserve(rows_.size());
  for (const MeasurementRow& row : rows_) sizes_.push_back(ParseSizeKey(row.size_key));
  models_ = ModelsIn(rows_);
}

// The accepted row closest to the asked size, then fastest; status kNotFound if none.
template <typename Accept>
Selection BestRows::Nearest(const LookupTarget& target, Accept accept) const {
  std::size_t best = rows_.size();
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (!accept(rows_[i])) continue;
    const double distance = LogDistance(sizes_[i], target.sizes);
    if (!std::isfinite(distance)) continue;
    const bool closer = distance < best_distance - 1e-12;
    const bool tie = std::abs(distance - best_distance) <= 1e-12;
    if (closer || (tie && Faster(rows_[i], rows_[best]))) {
      best = i;
      best_distance = distance;
    }
  }
  Selection chosen;
  if (best == rows_.size()) return chosen;
  chosen.status = LookupStatus::kFound;
  chosen.index = best;
  chosen.size_distance = best_distance;
  return chosen;
}

// The fallback chain over the rows whose staleness is `stale`.
Selection BestRows::SelectAmong(const LookupTarget& target, bool stale) const {
  const GpuRecord& want = target.gpu;
  const bool by_card = !want.uuid.empty();
  // Published results stand only for their imported model, never for a card measured here.
  const bool want_imported = IsImportedModel(want);
  const auto eligible = [&](const MeasurementRow& r) {
    return r.stale == stale && IsImportedGpu(r.gpu) == want_imported;
  };
  Selection chosen = Nearest(target, [&](const MeasurementRow& r) {
    return eligible(r) && (by_card ? r.gpu.uuid == want.uuid : SameModel(r.gpu, want));
  });
  if (chosen.status == LookupStatus::kFound) {
    chosen.fallback = chosen.size_distance == 0 ? Fallback::kExact : Fallback::kNearestSize;
    return chosen;
  }
  if (by_card) {
    chosen = Nearest(target, [&](const MeasurementRow& r) { return eligible(r) && SameModel(r.gpu, want); });
    chosen.fallback = Fallback::kSameModel;
    if (chosen.status == LookupStatus::kFound) return chosen;
  }
  chosen = Nearest(target, [&](const MeasurementRow& r) { return eligible(r) && SameArchitecture(r.gpu, want); });
  chosen.fallback = Fallback::kSameArchitecture;
  return chosen;
}

Selection BestRows::Select(const LookupTarget& target) const {
  Selection chosen = SelectAmong(target, false);
  if (chosen.status != LookupStatus::kFound) {
    chosen = SelectAmong(target, true);
    if (chosen.status == LookupStatus::kFound) chosen.status = LookupStatus::kOnlyStale;
  }
  if (chosen.status != LookupStatus::kNotFound) chosen.row = rows_[chosen.index];
  return chosen;
}

Selection SelectBest(const std::vector<MeasurementRow>& best_rows, const LookupTarget& target) {
  return BestRows(best_rows).Select(target);
}

std::string Selection::Describe(const LookupTarget& target) const {
  const std::string asked = SizeKey(target.sizes);
  if (status == LookupStatus::kNotFound)
    return "no result for size " + asked + " on " + target.gpu.name + " or any GPU of its architecture";
  std::string text;
  if (status == LookupStatus::kOnlyStale)
    text = "only results of an older version of the template (" + row.templ.hash + "): ";
  const std::string where = " on " + GpuLabel(row.gpu);
  if (size_distance == 0) {
    text += "exact size " + row.size_key;
  } else {
    text += "nearest tuned size " + row.size_key + " (asked " + asked + ")";
  }
  switch (fallback) {
    case Fallback::kExact:
    case Fallback::kNearestSize:
      return text + where;
    case Fallback::kSameModel:
      return text + where + ", another card of the same model";
    case Fallback::kSameArchitecture:
      return text + where + ", another model of the same architecture (" + row.gpu.Arch() + ")";
  }
  return text;
}

bool Faster(const MeasurementRow& a, const MeasurementRow& b) { return FasterRecord(a.measurement, b.measurement); }

std::vector<GpuRecord> ModelsIn(const std::vector<MeasurementRow>& rows, const std::string& name_part) {
  std::vector<GpuRecord> models;
  for (const MeasurementRow& row : rows) {
    if (Lower(row.gpu.name).find(Lower(name_part)) == std::string::npos) continue;
    if (std::none_of(models.begin(), models.end(), [&](const GpuRecord& m) { return SameModel(m, row.gpu); })) {
      models.push_back(row.gpu);
      models.back().uuid.clear();
    }
  }
  return models;
}

std::vector<GpuRecord> ModelsNamed(const std::vector<GpuRecord>& models, const std::string& name_part) {
  std::vector<GpuRecord> named;
  const std::string part = Lower(name_part);
  for (const GpuRecord& model : models)
    if (Lower(model.name).find(part) != std::string::npos) named.push_back(model);
  return named;
}

double LogDistance(const std::vector<long long>& a, const std::vector<long long>& b) {
  if (a.size() != b.size() || a.empty()) return std::numeric_limits<double>::infinity();
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::log(static_cast<double>(a[i]) / static_cast<double>(b[i]));
    sum += d * d;
  }
  return std::sqrt(sum);
}

}  // namespace tuner::db
