#include "db/query/timing_filter.h"

#include <map>
#include <tuple>

#include "db/query/gpu_model.h"

namespace tuner::db {

namespace {

using Group = std::tuple<GpuModel, std::string, std::string, std::string>;  // model, uuid, template hash, size

Group GroupOf(const MeasurementRow& row, ModeGroup by) {
  return {ModelOf(row.gpu), by == ModeGroup::kCard ? row.gpu.uuid : "", row.templ.hash, row.size_key};
}

bool MeasuredLater(const MeasurementRecord& a, const MeasurementRecord& b) {
  if (a.measured_at != b.measured_at) return a.measured_at > b.measured_at;
  return a.id > b.id;
}

}  // namespace

std::vector<MeasurementRow> OneTimingMode(std::vector<MeasurementRow> rows, const std::string& mode, ModeGroup by) {
  std::map<Group, const MeasurementRecord*> newest;
  if (mode.empty())
    for (const MeasurementRow& row : rows) {
      const MeasurementRecord*& latest = newest[GroupOf(row, by)];
      if (!latest || MeasuredLater(row.measurement, *latest)) latest = &row.measurement;
    }
  std::map<Group, std::string> wanted;
  for (const auto& [group, latest] : newest) wanted[group] = latest->timing_mode;
  std::vector<MeasurementRow> kept;
  for (MeasurementRow& row : rows)
    if (row.measurement.timing_mode == (mode.empty() ? wanted.at(GroupOf(row, by)) : mode))
      kept.push_back(std::move(row));
  return kept;
}

}  // namespace tuner::db
