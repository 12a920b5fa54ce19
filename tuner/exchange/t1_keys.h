// The keys each object of a T1 description may have: the T1 schema's, and the extensions that Kernel
// Tuner and the community's benchmark collection write (ProblemSize, GridDivX, MemType, Output, ...).
// Any other key is refused, as a template description's are: a misspelt `Conditons` must not
// silently drop every condition.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tuner {

enum class T1Object {
  kRoot,
  kGeneral,
  kConfigurationSpace,
  kTuningParameter,
  kCondition,
  kKernelSpecification,
  kAxes,  // LocalSize, GlobalSize
  kArgument
};

// Throws UsageError "FILE: FIELD: 'KEY' is not a T1 key (did you mean `Conditions`?); ..." for the first
// key of `object` the list does not have. `field` is where the object is ("" for the document).
void RefuseUnknownT1Keys(const nlohmann::json& object, T1Object kind, const std::string& file,
                         const std::string& field);

}  // namespace tuner
