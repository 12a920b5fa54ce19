#include "reports/report_data.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "base/errors.h"
#include "common/option_values.h"
#include "common/version.h"
#include "db/model_sweep.h"
#include "db/query/best.h"
#include "base/number_text.h"
#include "db/query/selection.h"
#include "db/query/timing_filter.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

// ok rows fastest first (db/query/best.h: the first is the best that `tuner query` chooses), then
// the failures by status and parameters.
bool CandidateLess(const db::MeasurementRow& a, const db::MeasurementRow& b) {
  const db::MeasurementRecord &x = a.measurement, &y = b.measurement;
  const bool x_ok = IsOk(x.status), y_ok = IsOk(y.status);
  if (x_ok != y_ok) return x_ok;
  if (x_ok && db::FasterRecord(x, y) != db::FasterRecord(y, x)) return db::FasterRecord(x, y);
  if (x_ok) return x.params_json < y.params_json;  // rows not read from a store (no ids)
  const std::string x_status = ToText(x.status), y_status = ToText(y.status);
  return std::tie(x_status, x.params_json) < std::tie(y_status, y.params_json);
}

void FinishRun(Run& run) {
  std::sort(run.rows.begin(), run.rows.end(), CandidateLess);
  if (!run.rows.empty() && IsOk(run.rows.front().measurement.status)) run.best = 0;
  const std::string unit = run.best ? run.rows.front().measurement.perf_unit : "";
  for (const db::MeasurementRow& row : run.rows) {
    run.ceiling = CeilingFor(unit, run.gpu, row.sweep);
    if (run.ceiling.known() || unit.empty()) break;
  }
  if (run.best) ApplyBound(run.ceiling, run.rows.front().measurement);
}

std::vector<SweepInfo> Sweeps(const std::vector<db::MeasurementRow>& rows) {
  std::map<std::string, SweepInfo> by_uid;
  for (const db::MeasurementRow& row : rows) {
    SweepInfo& info = by_uid[row.sweep.uid];
    info.gpu = row.gpu;
    info.sweep = row.sweep;
    info.template_hash = row.templ.hash;
    ++info.rows;
  }
  std::vector<SweepInfo> sweeps;
  for (auto& [uid, info] : by_uid) sweeps.push_back(std::move(info));
  std::sort(sweeps.begin(), sweeps.end(), [](const SweepInfo& a, const SweepInfo& b) {
    return std::tie(a.sweep.started_at, a.sweep.uid) < std::tie(b.sweep.started_at, b.sweep.uid);
  });
  return sweeps;
}

bool Wanted(const db::MeasurementRow& row, const ReportRequest& request) {
  const auto& sizes = request.size_keys;
  return sizes.empty() || std::find(sizes.begin(), sizes.end(), row.size_key) != sizes.end();
}

}  // namespace

std::size_t Run::CountOk() const {
  return static_cast<std::size_t>(std::count_if(
      rows.begin(), rows.end(), [](const db::MeasurementRow& r) { return IsOk(r.measurement.status); }));
}

std::string Run::Cards() const { return db::CardsText(cards); }

std::string Run::ShortCards() const {
  return cards.size() == 1 ? cards.front().substr(0, 12) : std::to_string(cards.size()) + " cards";
}

std::string Run::Label() const { return ShortGpuName(gpu.name) + " \u00b7 " + size_key; }

std::size_t KernelReport::CountRows() const {
  std::size_t n = 0;
  for (const Run& run : runs) n += run.rows.size();
  return n;
}

std::size_t ReportData::CountRows() const {
  std::size_t n = 0;
  for (const KernelReport& k : kernels) n += k.CountRows();
  return n;
}

bool SizeKeyLess(const std::string& a, const std::string& b) {
  const std::vector<long long> x = ParseSizeKey(a), y = ParseSizeKey(b);
  if (x.empty() != y.empty()) return !x.empty();
  auto volume = [](const std::vector<long long>& v) {
    double n = 1;
    for (long long d : v) n *= static_cast<double>(d);
    return n;
  };
  if (!x.empty() && volume(x) != volume(y)) return volume(x) < volume(y);
  return a < b;
}

KernelReport GroupKernel(const std::string& kernel, const std::vector<db::MeasurementRow>& rows,
                         const ValueLabels& labels, const std::function<bool(const db::GpuRecord&)>& apart) {
  KernelReport report;
  report.kernel = kernel;
  if (!labels.empty()) report.labels = std::make_shared<const ValueLabels>(labels);
  for (const db::MeasurementRow& row : rows)
    for (const std::string& name : ParamNames(row.measurement.params_json))
      if (std::find(report.parameter_names.begin(), report.parameter_names.end(), name) == report.parameter_names.end())
        report.parameter_names.push_back(name);
  for (db::ModelSweep& sweep : db::SweepsPerModel(rows, apart)) {
    const bool stale = sweep.rows.front().stale;
    report.runs.push_back({sweep.gpu, sweep.size_key, sweep.template_hash, stale, std::move(sweep.rows), std::nullopt,
                           {}, report.labels, std::move(sweep.cards), std::move(sweep.set_aside)});
  }
  for (Run& run : report.runs) FinishRun(run);
  std::stable_sort(report.runs.begin(), report.runs.end(), [](const Run& a, const Run& b) {
    if (a.gpu.name != b.gpu.name) return a.gpu.name < b.gpu.name;
    if (a.cards != b.cards) return a.cards < b.cards;
    if (a.size_key != b.size_key) return SizeKeyLess(a.size_key, b.size_key);
    return a.stale < b.stale;
  });
  report.sweeps = Sweeps(rows);
  return report;
}

ReportData SelectReportData(db::Store& store, const ReportRequest& request) {
  ReportData data;
  data.database_path = store.path();
  data.generated_at = db::NowUtc();
  data.tool_version = kVersion;
  data.request = request;
  const std::vector<std::string> stored = store.TemplateNames();
  std::vector<std::string> kernels = request.kernels.empty() ? stored : request.kernels;
  for (const std::string& kernel : kernels) {
    if (std::find(stored.begin(), stored.end(), kernel) == stored.end()) {
      std::string names;
      for (const std::string& s : stored) names += (names.empty() ? "" : ", ") + s;
      throw UsageError("no results of " + Quoted(kernel) + " are stored in " + store.path() +
                       (names.empty() ? " (it holds none yet)" : " (stored: " + names + ")"));
    }
    db::MeasurementFilter filter;
    filter.template_name = kernel;
    filter.gpu_name = request.device;
    std::vector<db::MeasurementRow> rows;
    std::size_t stale = 0;
    for (db::MeasurementRow& row : store.ListMeasurements(filter)) {
      if (!Wanted(row, request)) continue;
      if (row.stale && !request.include_stale)
        ++stale;
      else
        rows.push_back(std::move(row));
    }
    rows = db::OneTimingMode(std::move(rows), request.timing_mode, db::ModeGroup::kModel);
    const auto labels = request.labels.find(kernel);
    data.kernels.push_back(
        GroupKernel(kernel, rows, labels == request.labels.end() ? ValueLabels{} : labels->second, request.apart));
    data.kernels.back().stale_rows_left_out = stale;
  }
  return data;
}

}  // namespace tuner::report
