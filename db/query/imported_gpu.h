// A GPU model whose results were published elsewhere and imported (`tuner import kernel-tuner-cache|t4`),
// not measured here. The file names the model only: the store's GPU has the uuid "imported:MODEL"
// and no compute capability, SM count or memory. So that published numbers are never launched as if
// measured on this machine, such a GPU is never the same model or architecture as a real card, and a
// lookup by name leaves it out unless asked for.
#pragma once

#include <string>

#include "db/query/records.h"

namespace tuner::db {

// The store's GPU record of an imported GPU model ("NVIDIA A100-PCIE-40GB").
GpuRecord ImportedGpu(const std::string& model);

// Whether a stored GPU (with its uuid) is one of ImportedGpu's.
bool IsImportedGpu(const GpuIdentity& gpu);

// Whether a model (a GPU without its uuid, as ModelsIn lists them) is an imported one: a name
// without compute capability, which every real card has (an empty identity, a GPU that could not
// be queried, is none).
bool IsImportedModel(const GpuIdentity& model);

}  // namespace tuner::db
