// A GPU model: what two cards must share for the results of one to stand for the other's. The one
// identity behind a resume (Store::ModelMeasurements), the candidates the GPUs of one run share
// (`tuner tune --gpus`), the best of each model (Store::BestPerModel, `tuner tune --gpus`) and the
// lookup's same-model fallback. Memory counts in bytes, as the driver reports it and as every
// database has stored it, so that cards which share candidates also resume from each other.
#pragma once

#include <string>
#include <tuple>

#include "base/gpu_identity.h"

namespace tuner::db {

// A GPU's identity without its card: the UUID is empty.
struct GpuModel : GpuIdentity {
  auto Fields() const { return std::tie(name, cc_major, cc_minor, sm_count, memory_bytes); }
  bool operator==(const GpuModel& other) const { return Fields() == other.Fields(); }
  bool operator!=(const GpuModel& other) const { return !(*this == other); }
  bool operator<(const GpuModel& other) const { return Fields() < other.Fields(); }

  // "NVIDIA H100 80GB HBM3 sm_90 132 SMs 79 GiB": how output names it (memory rounded down).
  std::string Text() const;
};

// The model of a card: of the store, of this machine, or one the application library looks up.
GpuModel ModelOf(const GpuIdentity& gpu);
bool SameModel(const GpuIdentity& a, const GpuIdentity& b);

// The SQL condition that the rows `a` and `b` of the gpus table (their aliases) are one model.
std::string SameModelSql(const std::string& a, const std::string& b);

}  // namespace tuner::db
