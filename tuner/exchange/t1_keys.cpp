#include "exchange/t1_keys.h"

#include <algorithm>
#include <map>
#include <vector>

#include "base/errors.h"
#include "common/option_values.h"
#include "common/spelling.h"

namespace tuner {

namespace {

const std::vector<std::string>& KnownKeys(T1Object kind) {
  static const std::map<T1Object, std::vector<std::string>> kKeys = {
      {T1Object::kRoot, {"General", "ConfigurationSpace", "Search", "Budget", "KernelSpecification", "BenchmarkConfig"}},
      {T1Object::kGeneral, {"FormatVersion", "LoggingLevel", "TimeUnit", "OutputFile", "OutputFormat", "BenchmarkName"}},
      {T1Object::kConfigurationSpace, {"TuningParameters", "Conditions"}},
      {T1Object::kTuningParameter, {"Name", "Type", "Values", "Default"}},
      {T1Object::kCondition, {"Parameters", "Expression"}},
      {T1Object::kKernelSpecification,
       {"Device", "Language", "CompilerOptions", "Profiling", "KernelName", "KernelFile", "GlobalSizeType",
        "SharedMemory", "SimulationInput", "GlobalSize", "LocalSize", "Arguments", "ReferenceArguments", "ProblemSize",
        "GridDivX", "GridDivY", "GridDivZ", "BenchmarkName", "Stream", "Misc"}},
      {T1Object::kAxes, {"X", "Y", "Z"}},
      {T1Object::kArgument,
       {"Name", "Type", "Size", "TypeSize", "FillType", "FillValue", "DataSource", "RandomSeed", "AccessType",
        "MemoryType", "Output", "MemType"}}};
  return kKeys.at(kind);
}

}  // namespace

void RefuseUnknownT1Keys(const nlohmann::json& object, T1Object kind, const std::string& file,
                         const std::string& field) {
  if (!object.is_object()) return;  // its type is refused where it is read
  const std::vector<std::string>& known = KnownKeys(kind);
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    std::string list;
    for (const std::string& key : known) list += (list.empty() ? "" : ", ") + key;
    throw UsageError(file + ": " + (field.empty() ? "(the document)" : field) + ": " + Quoted(item.key()) +
                     " is not a T1 key" + DidYouMean(item.key(), known) + "; the keys here are " + list);
  }
}

}  // namespace tuner
