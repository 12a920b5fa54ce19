#include "db/query/gpu_model.h"

namespace tuner::db {

std::string GpuModel::Text() const {
  return name + " " + Arch() + " " + std::to_string(sm_count) + " SMs " + std::to_string(memory_bytes >> 30) + " GiB";
}

GpuModel ModelOf(const GpuIdentity& gpu) {
  GpuModel model{gpu};
  model.uuid.clear();
  return model;
}

bool SameModel(const GpuIdentity& a, const GpuIdentity& b) { return ModelOf(a) == ModelOf(b); }

std::string SameModelSql(const std::string& a, const std::string& b) {
  std::string condition;
  for (const char* column : {"name", "cc_major", "cc_minor", "sm_count", "memory_bytes"})
    condition += std::string(condition.empty() ? "" : " AND ") + a + "." + column + " = " + b + "." + column;
  return condition;
}

}  // namespace tuner::db
