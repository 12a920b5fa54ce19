// Text shared by the report writers: numbers, parameter lists, GPU labels, file-name slugs. Plain
// text only; each writer escapes for its own format.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "db/query/records.h"

namespace tuner::report {

// 3 significant digits below 100, no decimals above: "0.0123", "4.56", "78.9", "1234".
std::string FormatNumber(double value);
std::string FormatPercent(double fraction);  // 0.834 -> "83.4%"
std::string FormatMs(double ms);             // "0.0123 ms", "1.23 ms", "123 ms"

// Names of parameter values from the templates: {"VARIANT": {"0": "naive", "1": "tiled"}}.
using ValueLabels = std::map<std::string, std::map<std::string, std::string>>;

// {"TILE":32,"ROWS":4} -> "TILE=32 ROWS=4" (values named by `labels` where given); the text as stored
// when it is not a JSON object.
std::string ParamsText(const std::string& params_json, const ValueLabels* labels = nullptr);
// The parameter names of a params_json, in stored order.
std::vector<std::string> ParamNames(const std::string& params_json);
// The value of one parameter as text ("32"; strings without quotes; its label where `labels` has
// one); "" when absent.
std::string ParamValue(const std::string& params_json, const std::string& name, const ValueLabels* labels = nullptr);

// "NVIDIA H100 80GB HBM3" -> "H100": the vendor and the memory configuration dropped.
std::string ShortGpuName(const std::string& name);

// Letters, digits, '-' and '_' only, lower case, at most 48 characters: safe in a file name.
std::string Slug(const std::string& text);

}  // namespace tuner::report
