#include "db/selection.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>

namespace tuner::db {

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool SameArchitecture(const GpuRecord& a, const GpuRecord& b) {
  return a.cc_major == b.cc_major && a.cc_minor == b.cc_minor;
}

// The row among those `accepted` closest to the asked size, then fastest; status kNotFound if none.
Selection Nearest(const std::vector<MeasurementRow>& rows, const LookupTarget& target,
                  const std::function<bool(const GpuRecord&)>& accepted) {
  Selection best;
  double best_distance = std::numeric_limits<double>::infinity();
  for (const MeasurementRow& row : rows) {
    if (!accepted(row.gpu)) continue;
    const double distance = LogDistance(ParseSizeKey(row.size_key), target.sizes);
    if (!std::isfinite(distance)) continue;
    const bool closer = distance < best_distance - 1e-12;
    const bool tie = std::abs(distance - best_distance) <= 1e-12;
    if (closer || (tie && row.measurement.time_ms_median < best.row.measurement.time_ms_median)) {
      best.status = LookupStatus::kFound;
      best.row = row;
      best.size_distance = distance;
      best_distance = distance;
    }
  }
  return best;
}

Selection SelectAmong(const std::vector<MeasurementRow>& rows, const LookupTarget& target) {
  const GpuRecord& want = target.gpu;
  const bool by_card = !want.uuid.empty();
  Selection chosen = Nearest(rows, target, [&](const GpuRecord& g) {
    return by_card ? g.uuid == want.uuid : SameModel(g, want);
  });
  if (chosen.status == LookupStatus::kFound) {
    chosen.fallback = chosen.size_distance == 0 ? Fallback::kExact : Fallback::kNearestSize;
    return chosen;
  }
  if (by_card) {
    chosen = Nearest(rows, target, [&](const GpuRecord& g) { return SameModel(g, want); });
    chosen.fallback = Fallback::kSameModel;
    if (chosen.status == LookupStatus::kFound) return chosen;
  }
  chosen = Nearest(rows, target, [&](const GpuRecord& g) { return SameArchitecture(g, want); });
  chosen.fallback = Fallback::kSameArchitecture;
  return chosen;
}

std::string GpuLabel(const GpuRecord& gpu) { return gpu.name + " (" + gpu.uuid + ")"; }

}  // namespace

const char* ToString(Fallback fallback) {
  switch (fallback) {
    case Fallback::kExact: return "exact";
    case Fallback::kNearestSize: return "nearest_size";
    case Fallback::kSameModel: return "same_model";
    case Fallback::kSameArchitecture: return "same_architecture";
  }
  return "?";
}

const char* ToString(LookupStatus status) {
  switch (status) {
    case LookupStatus::kFound: return "found";
    case LookupStatus::kOnlyStale: return "only_stale";
    case LookupStatus::kNotFound: return "not_found";
  }
  return "?";
}

Selection SelectBest(const std::vector<MeasurementRow>& best_rows, const LookupTarget& target) {
  std::vector<MeasurementRow> current, stale;
  for (const MeasurementRow& row : best_rows) (row.stale ? stale : current).push_back(row);
  Selection chosen = SelectAmong(current, target);
  if (chosen.status == LookupStatus::kFound) return chosen;
  chosen = SelectAmong(stale, target);
  if (chosen.status == LookupStatus::kFound) chosen.status = LookupStatus::kOnlyStale;
  return chosen;
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
    case Fallback::kNearestSize: return text + where;
    case Fallback::kSameModel: return text + where + ", another card of the same model";
    case Fallback::kSameArchitecture:
      return text + where + ", another model of the same architecture (sm_" + std::to_string(row.gpu.cc_major) +
             std::to_string(row.gpu.cc_minor) + ")";
  }
  return text;
}

bool SameModel(const GpuRecord& a, const GpuRecord& b) {
  return a.name == b.name && a.cc_major == b.cc_major && a.cc_minor == b.cc_minor && a.sm_count == b.sm_count &&
         a.memory_bytes == b.memory_bytes;
}

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

std::vector<long long> ParseSizeKey(const std::string& key) {
  std::vector<long long> sizes;
  std::size_t start = 0;
  while (start <= key.size()) {
    std::size_t end = key.find('x', start);
    if (end == std::string::npos) end = key.size();
    const std::string part = key.substr(start, end - start);
    if (part.empty() || part.size() > 18 || !std::all_of(part.begin(), part.end(), ::isdigit)) return {};
    sizes.push_back(std::stoll(part));
    if (sizes.back() <= 0) return {};
    start = end + 1;
  }
  return sizes;
}

std::string SizeKey(const std::vector<long long>& sizes) {
  std::string key;
  for (long long size : sizes) key += (key.empty() ? "" : "x") + std::to_string(size);
  return key;
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
