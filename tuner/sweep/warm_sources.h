// Where a warm start comes from: the other sweeps the store holds of the same template version,
// one per GPU model and size, other than the sweep being made (that GPU model at that size).
#pragma once

#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/store.h"

namespace tuner {

struct OtherSweep {
  std::string gpu_name;
  std::string size_key;
  std::vector<db::MeasurementRecord> records;
};

// In (GPU name, size) order. `template_hash`: the version whose results count (a changed template's
// configurations may mean other code).
std::vector<OtherSweep> OtherSweeps(db::Store& store, const std::string& template_name,
                                    const std::string& template_hash, const std::string& gpu_name,
                                    const std::string& size_key);

// "2 stored sweeps (NVIDIA H100 2048x2048x2048, NVIDIA H200 4096x4096x4096)": what a warm start
// was made from, for the sweep's summary; at most `named` named.
std::string OtherSweepsText(const std::vector<OtherSweep>& sweeps, std::size_t named = 3);

// Each one's records, as MakeWarmStart takes them.
std::vector<std::vector<db::MeasurementRecord>> RecordsOf(const std::vector<OtherSweep>& sweeps);

}  // namespace tuner
