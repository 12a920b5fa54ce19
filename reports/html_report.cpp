#include "reports/html_report.h"

#include <set>

#include "common/svg_chart.h"
#include "reports/hardware_charts.h"
#include "reports/html_style.h"
#include "reports/overview_charts.h"
#include "reports/report_charts.h"
#include "reports/report_format.h"
#include "reports/report_tables.h"
#include "reports/roofline_chart.h"
#include "reports/size_tables.h"
#include "reports/winner_card.h"

namespace tuner::report {

namespace {

std::string E(const std::string& text) { return XmlEscape(text); }

std::string Tag(const std::string& tag, const std::string& text, const std::string& cls = "") {
  return "<" + tag + (cls.empty() ? "" : " class=\"" + cls + "\"") + ">" + E(text) + "</" + tag + ">\n";
}

std::string Cell(const Table& t, std::size_t row, std::size_t col) {
  const std::string& text = t.rows[row][col];
  const bool numeric = col < t.numeric.size() && t.numeric[col];
  std::string badge;
  if (col == 0 && row < t.row_status.size() && !t.row_status[row].empty())
    badge = "<span class=\"st\" style=\"background:" + E(StatusColor(t.row_status[row])) + "\"></span>";
  const std::string cls = numeric ? " class=\"n\"" : (text.size() > 40 ? " class=\"wrap\"" : "");
  return "<td" + cls + ">" + badge + E(text) + "</td>";
}

std::string HtmlTable(const Table& t) {
  std::string out = "<div class=\"scroll\"><table>\n<thead><tr>";
  for (const std::string& h : t.header) out += "<th>" + E(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    out += "<tr>";
    for (std::size_t c = 0; c < t.rows[r].size(); ++c) out += Cell(t, r, c);
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string Figure(const NamedChart& chart) {
  return "<figure>\n" + RenderSvg(chart.chart) + "<figcaption>" + E(chart.caption) + "</figcaption>\n</figure>\n";
}

std::string Card(const std::string& key, const std::string& value, bool params = false) {
  return std::string("<div class=\"card") + (params ? " wide" : "") + "\"><div class=\"k\">" + E(key) +
         "</div><div class=\"v" + (params ? " params" : "") + "\">" + E(value) + "</div></div>\n";
}

std::string BestCards(const Run& run) {
  const db::MeasurementRow* best = run.Best();
  if (!best)
    return Tag("p", "No candidate of this run produced a correct result; the failures are listed below.", "note");
  const db::MeasurementRecord& m = best->measurement;
  std::string out = "<div class=\"cards\">\n" +
                    Card("Best throughput", FormatNumber(m.perf_value) + " " + m.perf_unit) +
                    Card("Median time", FormatMs(m.time_ms_median)) + Card("Best parameters", run.Params(m), true);
  out += Card("Of the device ceiling", OfCeilingText(run.ceiling, m.perf_value));
  return out + Card("Candidates", StatusSummary(run)) + "</div>\n";
}

// Why the best won: its counters and energy, and a line for each one-parameter neighbour.
std::string WinnerCardHtml(const Run& run) {
  const WinnerCard card = MakeWinnerCard(run);
  if (card.neighbours.empty() && card.counters.empty() && card.energy.empty() && card.headroom.empty()) return "";
  std::string out = "<div class=\"winner\">\n" + Tag("h4", "Why " + card.params + " won");
  if (!card.headroom.empty()) out += Tag("p", "Its speed of light: " + card.headroom + ".");
  if (!card.counters.empty()) out += Tag("p", "Its counters: " + card.counters + ".", "muted");
  if (!card.energy.empty()) out += Tag("p", "Its energy: " + card.energy + ".", "muted");
  if (!card.neighbours.empty()) {
    out += "<ul>\n";
    for (const NeighbourComparison& n : card.neighbours) out += "<li>" + E(n.sentence) + "</li>\n";
    out += "</ul>\n";
  }
  return out + "</div>\n";
}

std::string RunSection(const KernelReport& kernel, const Run& run) {
  std::string out = "<details open>\n<summary><h3>" + E(run.Label()) + "</h3> <span class=\"muted\">" +
                    E(run.gpu.name + ", " + run.gpu.Arch() + ", " + run.Cards()) +
                    (run.stale ? E(", older template version " + run.template_hash.substr(0, 12)) : "") +
                    "</span></summary>\n";
  out += BestCards(run) + WinnerCardHtml(run);
  if (!run.ceiling.known() && run.Best())
    out += Tag("p", "No ceiling for this run: " + run.ceiling.missing + ".", "note");
  out += "<div class=\"charts\">\n" + Figure(CandidatesChart(kernel, run));
  if (run.Best()) out += Figure(OccupancyChart(kernel, run));
  if (const auto roofline = RooflineChart(kernel, run)) out += Figure(*roofline);
  if (const auto pareto = ParetoChart(kernel, run)) out += Figure(*pareto);
  for (const NamedChart& chart : ParameterCharts(kernel, run)) out += Figure(chart);
  for (const NamedChart& chart : CounterCharts(kernel, run)) out += Figure(chart);
  out += "</div>\n";
  if (run.Best()) out += Tag("h4", "Fastest candidates") + HtmlTable(TopTable(run, 10));
  const Table failures = FailuresTable(run);
  out += Tag("h4", "Failures");
  out += failures.rows.empty() ? Tag("p", "Every candidate produced a correct result.", "muted") : HtmlTable(failures);
  return out + "</details>\n";
}

std::string KernelSection(const KernelReport& kernel, const std::string& id, const std::function<void()>& run_done) {
  std::string out = "<section id=\"" + E(id) + "\">\n" + Tag("h2", kernel.kernel);
  if (kernel.runs.empty())
    return out + Tag("p", "No measurements of this kernel match the device and size filters.", "note") + "</section>\n";
  out += Tag("p",
             std::to_string(kernel.CountRows()) + " measurements in " + std::to_string(kernel.runs.size()) +
                 " run(s) of one GPU and problem size each.",
             "muted");
  if (kernel.stale_rows_left_out > 0)
    out += Tag("p",
               std::to_string(kernel.stale_rows_left_out) +
                   " results of older versions of this template are left out (--include-stale shows them).",
               "note");
  out += Tag("h3", "Best per GPU and size") + HtmlTable(BestTable(kernel));
  std::string overview;
  if (auto across = AcrossChart(kernel)) overview += Figure(*across);
  if (auto ceiling = CeilingChart(kernel)) overview += Figure(*ceiling);
  if (!overview.empty()) out += "<div class=\"charts\">\n" + overview + "</div>\n";
  for (const SizeDispatch& sizes : SizeDispatches(kernel))
    out += Tag("h3", "Sizes on " + SizesHeading(sizes)) + Tag("p", DispatchSummary(sizes)) +
           Tag("h4", "Loss with the winners of other sizes") + HtmlTable(LossMatrixTable(sizes)) +
           Tag("h4", "Dispatch table") + HtmlTable(DispatchTableTable(kernel, sizes));
  for (const Run& run : kernel.runs) {
    out += RunSection(kernel, run);
    if (run_done) run_done();
  }
  out += Tag("h3", "Provenance") + HtmlTable(ProvenanceTable(kernel));
  return out + "</section>\n";
}

std::string KernelList(const ReportData& data) {
  std::string names;
  for (const KernelReport& k : data.kernels) names += (names.empty() ? "" : ", ") + k.kernel;
  return names.empty() ? "no kernels" : names;
}

// Unique, safe ids for the kernels' sections.
std::vector<std::string> SectionIds(const ReportData& data) {
  std::vector<std::string> ids;
  std::set<std::string> used;
  for (const KernelReport& k : data.kernels) {
    std::string id = "k-" + Slug(k.kernel);
    for (int n = 2; used.count(id); ++n) id = "k-" + Slug(k.kernel) + "-" + std::to_string(n);
    used.insert(id);
    ids.push_back(id);
  }
  return ids;
}

std::string Header(const ReportData& data, const std::vector<std::string>& ids) {
  std::string filters;
  if (!data.request.device.empty()) filters += ", GPUs matching '" + data.request.device + "'";
  for (const std::string& size : data.request.size_keys) filters += ", size " + size;
  std::string out =
      "<header>\n" + Tag("h1", "Tuning report: " + KernelList(data)) +
      Tag("p",
          "Generated " + data.generated_at + " by tuner " + data.tool_version + " from " + data.database_path + " (" +
              std::to_string(data.CountRows()) + " measurements" + filters + ").",
          "meta");
  out += "<nav><ul>\n<li><a href=\"#summary\">Summary</a></li>\n";
  for (std::size_t i = 0; i < ids.size(); ++i)
    out += "<li><a href=\"#" + E(ids[i]) + "\">" + E(data.kernels[i].kernel) + "</a></li>\n";
  return out + "</ul></nav>\n</header>\n";
}

}  // namespace

std::string RenderHtml(const ReportData& data, const std::function<void()>& run_done) {
  const std::vector<std::string> ids = SectionIds(data);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<title>" +
      E("Tuning report: " + KernelList(data)) + "</title>\n<style>" + kHtmlStyle +
      "</style>\n</head>\n<body>\n<main>\n";
  out += Header(data, ids);
  out += "<section id=\"summary\">\n" + Tag("h2", "Best per kernel, GPU and size");
  const Table summary = SummaryTable(data);
  out += summary.rows.empty() ? Tag("p", "No measurements match this report's filters.", "note") : HtmlTable(summary);
  out += Tag("p",
             "Throughput is the template's work (bytes moved or floating-point operations) over the median time. "
             "The ceiling is the device-to-device copy bandwidth measured in the same sweep for GB/s, and the "
             "FP32 peak (SMs x FP32 lanes x 2 x SM clock) for GFLOP/s.",
             "muted");
  out += "</section>\n";
  for (std::size_t i = 0; i < data.kernels.size(); ++i) out += KernelSection(data.kernels[i], ids[i], run_done);
  out += "<footer>" + Tag("p", "tuner " + data.tool_version + " \u00b7 " + data.generated_at, "muted") + "</footer>\n";
  return out + "</main>\n</body>\n</html>\n";
}

}  // namespace tuner::report
