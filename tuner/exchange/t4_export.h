// Stored results in T4, the autotuning community's results format (the results schema that
// Kernel Tuner ships as schema/T4/1.0.0/results-schema.json), so that a sweep of tuner's can be
// scored with the community's methodology beside other tuners' runs of the same space.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/query/store.h"

namespace tuner {

inline constexpr const char* kT4SchemaVersion = "1.0.0";

// T4's `invalidity` of a stored status: correct, correctness, compile, constraints (cannot launch
// on the device), runtime (a launch error or a fault) or timeout. Throws std::invalid_argument for
// `skipped`, which was never measured.
std::string T4Invalidity(CandidateStatus status);

// The T4 document of one GPU model's results of one template version and size: one result per
// candidate, its newest measurement (a candidate measured on two cards of the model has two), in
// the order they were measured; `skipped` candidates are left out. `rows` must all be of one model,
// version and size.
nlohmann::ordered_json T4Document(const std::vector<db::MeasurementRow>& rows);

}  // namespace tuner
