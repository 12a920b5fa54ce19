// What a row from elsewhere (`tuner db import`, `tuner db merge`) must look like before it reaches
// the store: every field as the tool's own writer writes it. A row that breaks these would mislead
// every reader (a negative time taken as the best, parameters the application cannot launch, a size
// key that is a path), so the commands refuse the whole input when one row does.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "db/query/store.h"

namespace tuner::db {

// The range of an ok candidate's time: below 1 ns no kernel launch completes (a time of 1e-300 ms
// would win every ranking), above a day none is tuned.
inline constexpr double kMinPlausibleMs = 1e-6;
inline constexpr double kMaxPlausibleMs = 24 * 3600 * 1e3;

// The longest GPU name a row may carry: every row of a sweep holds its own copy of it.
inline constexpr std::size_t kMaxGpuNameBytes = 256;

// The first problem of `row`, naming the field and its value ("measurement.time_ms_median is -1:
// ..."), or "" when the tool could have written it.
std::string RowProblem(const MeasurementRow& row);

// The problem of a template's name ("template.name is \"../x\": ..."), or "" for letters, digits
// and _ not starting with a digit: a name that could be a path or break a line is refused.
std::string TemplateNameProblem(const std::string& name);

// The parameter names of a params_json that RowProblem accepts, in their order.
std::vector<std::string> ParamNames(const std::string& params_json);

// Every row of one template version names the same parameters in the same order, and its size key
// has as many numbers: what the template's description (or the first row seen of that version)
// says. A row that differs would be served as a configuration of that template.
class VersionShapes {
 public:
  // What rows of (name, hash) must have; the first call for a version wins.
  void Expect(const std::string& name, const std::string& hash, std::vector<std::string> params, std::size_t sizes);
  // The problem of `row` against the shape of its version, or ""; a row of a version not seen yet
  // sets its shape.
  std::string Check(const MeasurementRow& row);

 private:
  struct Shape {
    std::vector<std::string> params;
    std::size_t sizes = 0;
  };
  std::map<std::pair<std::string, std::string>, Shape> shapes_;
};

}  // namespace tuner::db
