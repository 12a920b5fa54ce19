#include "db/query/imported_gpu.h"

namespace tuner::db {

namespace {

constexpr const char* kImportedUuidPrefix = "imported:";

}  // namespace

GpuRecord ImportedGpu(const std::string& model) {
  GpuRecord gpu;
  gpu.uuid = kImportedUuidPrefix + model;
  gpu.name = model;
  return gpu;
}

bool IsImportedGpu(const GpuIdentity& gpu) { return gpu.uuid.rfind(kImportedUuidPrefix, 0) == 0; }

bool IsImportedModel(const GpuIdentity& model) {
  return IsImportedGpu(model) || (model.uuid.empty() && model.cc_major == 0 && !model.name.empty());
}

}  // namespace tuner::db
