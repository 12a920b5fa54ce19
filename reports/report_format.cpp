#include "reports/report_format.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "db/row_json.h"

namespace tuner::report {

std::string FormatNumber(double value) {
  if (!std::isfinite(value)) return "-";
  char buffer[48];
  if (std::fabs(value) >= 100)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

std::string FormatPercent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * fraction);
  return buffer;
}

std::string FormatMs(double ms) { return FormatNumber(ms) + " ms"; }

namespace {

std::string ValueText(const std::string& name, const nlohmann::ordered_json& value, const ValueLabels* labels) {
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (!labels) return text;
  const auto param = labels->find(name);
  if (param == labels->end()) return text;
  const auto label = param->second.find(text);
  return label == param->second.end() ? text : label->second;
}

}  // namespace

std::string ParamsText(const std::string& params_json, const ValueLabels* labels) {
  const nlohmann::ordered_json params = db::ParseStoredJson(params_json);
  if (!params.is_object()) return params_json;
  std::string text;
  for (const auto& [name, value] : params.items())
    text += (text.empty() ? "" : " ") + name + "=" + ValueText(name, value, labels);
  return text;
}

std::vector<std::string> ParamNames(const std::string& params_json) {
  std::vector<std::string> names;
  const nlohmann::ordered_json params = db::ParseStoredJson(params_json);
  if (params.is_object())
    for (const auto& item : params.items()) names.push_back(item.key());
  return names;
}

std::string ParamValue(const std::string& params_json, const std::string& name, const ValueLabels* labels) {
  const nlohmann::ordered_json params = db::ParseStoredJson(params_json);
  if (!params.is_object() || !params.contains(name)) return "";
  return ValueText(name, params[name], labels);
}

std::string ShortGpuName(const std::string& name) {
  std::istringstream words(name);
  std::string word, out;
  while (words >> word) {
    if (word == "NVIDIA") continue;
    if (!out.empty() && std::isdigit(static_cast<unsigned char>(word[0])) && word.find("GB") != std::string::npos)
      break;
    out += (out.empty() ? "" : " ") + word;
  }
  return out.empty() ? name : out;
}

std::string Slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      out += static_cast<char>(std::tolower(u));
    else if ((c == '-' || c == '_') || (!out.empty() && out.back() != '-'))
      out += c == '_' ? '_' : '-';
    if (out.size() >= 48) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "x" : out;
}

}  // namespace tuner::report
