#include "sweep/warm_sources.h"

#include <map>
#include <utility>

namespace tuner {

std::vector<OtherSweep> OtherSweeps(db::Store& store, const std::string& template_name,
                                    const std::string& template_hash, const std::string& gpu_name,
                                    const std::string& size_key) {
  db::MeasurementFilter filter;
  filter.template_name = template_name;
  std::map<std::pair<std::string, std::string>, std::vector<db::MeasurementRecord>> groups;
  for (db::MeasurementRow& row : store.ListMeasurements(filter)) {
    if (row.templ.hash != template_hash || (row.gpu.name == gpu_name && row.size_key == size_key)) continue;
    groups[{row.gpu.name, row.size_key}].push_back(std::move(row.measurement));
  }
  std::vector<OtherSweep> sweeps;
  for (auto& [key, records] : groups) sweeps.push_back({key.first, key.second, std::move(records)});
  return sweeps;
}

std::string OtherSweepsText(const std::vector<OtherSweep>& sweeps, std::size_t named) {
  std::string text = std::to_string(sweeps.size()) + " stored sweep" + (sweeps.size() == 1 ? "" : "s") + " (";
  for (std::size_t i = 0; i < sweeps.size() && i < named; ++i)
    text += (i ? ", " : "") + sweeps[i].gpu_name + " " + sweeps[i].size_key;
  if (sweeps.size() > named) text += ", ...";
  return text + ")";
}

std::vector<std::vector<db::MeasurementRecord>> RecordsOf(const std::vector<OtherSweep>& sweeps) {
  std::vector<std::vector<db::MeasurementRecord>> records;
  for (const OtherSweep& s : sweeps) records.push_back(s.records);
  return records;
}

}  // namespace tuner
