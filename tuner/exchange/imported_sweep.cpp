#include "exchange/imported_sweep.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/content_hash.h"
#include "template/search_space.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

// A parameter's value as the template holds it: a whole number, a boolean as 0/1, or the index of
// one of the parameter's labels.
long long ParamValue(const ImportedResults& results, const ImportedConfig& config, const std::string& name,
                     const ordered_json& value, const ParamSpec* spec) {
  if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
  if (value.is_number_integer()) return value.get<long long>();
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 9e15)
      return static_cast<long long>(number);
  }
  if (spec && !spec->labels.empty()) {
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    const auto label = std::find(spec->labels.begin(), spec->labels.end(), text);
    if (label != spec->labels.end()) return spec->values[static_cast<std::size_t>(label - spec->labels.begin())];
  }
  RefuseField(results, config.place, name,
              "is " + Shown(value) + ", not a whole number" + (spec && !spec->labels.empty() ? " or a label" : "") +
                  " of the template's parameter");
}

ParamValues Params(const ImportedResults& results, const ImportedConfig& config, const ImportTarget& target) {
  ParamValues params;
  if (target.params.empty()) {
    for (const auto& [name, value] : config.configuration.items())
      params.emplace_back(name, ParamValue(results, config, name, value, nullptr));
    return params;
  }
  for (const ParamSpec& spec : target.params) {
    if (!config.configuration.contains(spec.name))
      RefuseField(results, config.place, spec.name, "missing (a parameter of template '" + target.template_name + "')");
    params.emplace_back(spec.name, ParamValue(results, config, spec.name, config.configuration[spec.name], &spec));
  }
  for (const auto& [name, value] : config.configuration.items())
    if (std::none_of(target.params.begin(), target.params.end(), [&](const ParamSpec& p) { return p.name == name; }))
      RefuseField(results, config.place, name, "is not a parameter of template '" + target.template_name + "'");
  return params;
}

db::MeasurementRecord Measurement(const ImportedConfig& config, const ParamValues& params) {
  db::MeasurementRecord m;
  m.params_json = ParamsJson(params);
  m.status = config.status;
  m.reason = config.reason;
  m.compile_ms = config.compile_ms;
  m.measured_at = config.measured_at.empty() ? db::NowUtc() : config.measured_at;
  if (!IsOk(config.status)) return m;
  m.time_ms_median = config.time_ms;  // the file's objective (Kernel Tuner's is the mean of its runs)
  m.time_ms_min = m.time_ms_max = config.time_ms;
  if (!config.runtimes_ms.empty()) {
    const auto [low, high] = std::minmax_element(config.runtimes_ms.begin(), config.runtimes_ms.end());
    m.time_ms_min = *low;
    m.time_ms_max = *high;
  }
  m.samples = static_cast<int>(config.runtimes_ms.size());
  return m;
}

db::SweepRecord Sweep(const ImportedResults& results, const ImportTarget& target, const std::string& content_hash) {
  db::SweepRecord sweep;
  sweep.command = target.command;
  sweep.strategy = kImportedStrategy;
  sweep.size_key = target.size_key;
  sweep.status = "done";
  sweep.tool_version = results.format;
  std::string first, last;
  for (const ImportedConfig& c : results.configs) {
    if (c.measured_at.empty()) continue;
    if (first.empty() || c.measured_at < first) first = c.measured_at;
    last = std::max(last, c.measured_at);
  }
  sweep.started_at = first.empty() ? db::NowUtc() : first;
  sweep.ended_at = last.empty() ? sweep.started_at : last;
  sweep.uid = "import-" + ContentHash()
                              .Add(content_hash)
                              .Add("\n" + target.template_name + "\n" + target.template_hash + "\n" + target.size_key +
                                   "\n" + target.gpu_model)
                              .Hex();
  return sweep;
}

}  // namespace

std::vector<db::MeasurementRow> ImportedSweepRows(const ImportedResults& results, const ImportTarget& target,
                                                  const std::string& content_hash) {
  const db::GpuRecord gpu = db::ImportedGpu(target.gpu_model);
  const db::TemplateRecord templ{target.template_name, target.template_hash, ""};
  const db::SweepRecord sweep = Sweep(results, target, content_hash);
  std::vector<db::MeasurementRow> rows;
  std::set<std::string> seen;
  for (const ImportedConfig& config : results.configs) {
    const ParamValues params = Params(results, config, target);
    const std::string identity = ParamsJson(params);
    if (!target.candidates.empty() && !target.candidates.count(identity))
      RefuseField(results, config.place, "configuration",
                  DescribeParams(params) + " is not a candidate of template '" + target.template_name + "' at " +
                      target.size_key + " (its constraints exclude it, or a value is not among its values)");
    if (!seen.insert(identity).second)
      RefuseField(results, config.place, "configuration", DescribeParams(params) + " is listed twice");
    db::MeasurementRow row;
    row.gpu = gpu;
    row.templ = templ;
    row.sweep = sweep;
    row.size_key = target.size_key;
    row.measurement = Measurement(config, params);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string ImportedSpaceHash(const ImportedResults& results) {
  std::map<std::string, std::set<std::string>> values;
  for (const ImportedConfig& c : results.configs)
    for (const auto& [name, value] : c.configuration.items()) values[name].insert(value.dump());
  ContentHash hash;
  hash.Add("imported space\n");
  for (const auto& [name, set] : values) {
    hash.Add(name + "=");
    for (const std::string& v : set) hash.Add(v + ",");
    hash.Add("\n");
  }
  return "imported-" + hash.Hex();
}

}  // namespace tuner
