// Choosing the stored configuration to use for a (GPU, problem size) from the best rows of a
// template (Store::BestPerGpu), with fallbacks that are always reported: the exact size on this
// GPU, else the nearest tuned size (distance in log space per dimension) on this GPU, else another
// card of the same model, else another model of the same architecture. Shared by `tuner query` and
// the application library, so both always agree.
#pragma once

#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/store.h"

namespace tuner::db {

enum class Fallback { kExact, kNearestSize, kSameModel, kSameArchitecture };
const char* ToString(Fallback fallback);  // "exact", "nearest_size", "same_model", "same_architecture"

// Only current (non-stale) results are used; kOnlyStale says that results exist for older
// versions of the template only (`row` is then the best of those, for information).
enum class LookupStatus { kFound, kOnlyStale, kNotFound };
const char* ToString(LookupStatus status);  // "found", "only_stale", "not_found"

// The GPU to choose for: with a uuid, "this GPU" is that card; without, it is every card of the model.
struct LookupTarget {
  GpuRecord gpu;
  std::vector<long long> sizes;  // in the template's declared order
};

struct Selection {
  LookupStatus status = LookupStatus::kNotFound;
  Fallback fallback = Fallback::kExact;
  MeasurementRow row;
  std::size_t index = 0;     // of row among the rows selected from
  double size_distance = 0;  // log-space distance from the asked size to row.size_key

  // One line: "exact size on NVIDIA H100 (GPU-…)" or "nearest tuned size 4096x4096 (asked
  // 5000x5000) on …", or why nothing was found.
  std::string Describe(const LookupTarget& target) const;
};

// The best rows of a template with their size keys parsed once, for repeated selections (the
// application library keeps one per kernel).
class BestRows {
 public:
  explicit BestRows(std::vector<MeasurementRow> rows);
  Selection Select(const LookupTarget& target) const;
  const std::vector<MeasurementRow>& rows() const { return rows_; }
  const std::vector<GpuRecord>& models() const { return models_; }  // ModelsIn(rows())

 private:
  template <typename Accept>
  Selection Nearest(const LookupTarget& target, Accept accept) const;
  Selection SelectAmong(const LookupTarget& target, bool stale) const;

  std::vector<MeasurementRow> rows_;
  std::vector<std::vector<long long>> sizes_;  // parsed rows_[i].size_key
  std::vector<GpuRecord> models_;
};

Selection SelectBest(const std::vector<MeasurementRow>& best_rows, const LookupTarget& target);

// Whether row `a` wins over `b` by time, by the rule of db/query/best.h: equal times go to the lower
// measurement id, so that a choice never depends on the order the rows were read in (the library
// and `tuner query` read them in different orders).
bool Faster(const MeasurementRow& a, const MeasurementRow& b);

// The distinct models in `rows` (uuid cleared) whose name contains `name_part`, case-insensitively.
std::vector<GpuRecord> ModelsIn(const std::vector<MeasurementRow>& rows, const std::string& name_part = "");
std::vector<GpuRecord> ModelsNamed(const std::vector<GpuRecord>& models, const std::string& name_part);

// sqrt(sum over dimensions of ln(a_i / b_i)^2); infinity when the dimensions differ.
double LogDistance(const std::vector<long long>& a, const std::vector<long long>& b);

}  // namespace tuner::db
