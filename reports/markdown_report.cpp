#include "reports/markdown_report.h"

#include <set>

#include "common/svg_chart.h"
#include "reports/hardware_charts.h"
#include "reports/overview_charts.h"
#include "reports/report_charts.h"
#include "reports/report_format.h"
#include "reports/report_tables.h"
#include "reports/roofline_chart.h"
#include "reports/size_tables.h"
#include "reports/winner_card.h"

namespace tuner::report {

namespace {

std::string E(const std::string& text) { return MarkdownEscape(text); }

std::string MdTable(const Table& t) {
  std::string out = "|";
  for (const std::string& h : t.header) out += " " + E(h) + " |";
  out += "\n|";
  for (std::size_t c = 0; c < t.header.size(); ++c) out += c < t.numeric.size() && t.numeric[c] ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const std::string& cell : row) out += " " + (cell.empty() ? std::string(" ") : E(cell)) + " |";
    out += "\n";
  }
  return out + "\n";
}

class ChartLinks {
 public:
  ChartLinks(std::string folder, MarkdownReport* report) : folder_(std::move(folder)), report_(report) {}

  // The image link of a chart, its SVG kept for writing; "" without a charts folder.
  std::string Link(const std::string& kernel, const NamedChart& chart) {
    if (folder_.empty()) return "";
    std::string name = Slug(kernel) + "-" + chart.name;
    for (int n = 2; used_.count(name); ++n) name = Slug(kernel) + "-" + chart.name + "-" + std::to_string(n);
    used_.insert(name);
    const std::string path = folder_ + "/" + name + ".svg";
    report_->charts.push_back({path, RenderSvg(chart.chart)});
    return "![" + E(chart.chart.title) + "](" + path + ")\n\n" + E(chart.caption) + "\n\n";
  }

 private:
  std::string folder_;
  MarkdownReport* report_;
  std::set<std::string> used_;
};

std::string WinnerCardMarkdown(const Run& run) {
  const WinnerCard card = MakeWinnerCard(run);
  if (card.neighbours.empty() && card.counters.empty() && card.energy.empty() && card.headroom.empty()) return "";
  std::string out = "#### Why " + E(card.params) + " won\n\n";
  if (!card.headroom.empty()) out += "Its speed of light: " + E(card.headroom) + ".\n\n";
  if (!card.counters.empty()) out += "Its counters: " + E(card.counters) + ".\n\n";
  if (!card.energy.empty()) out += "Its energy: " + E(card.energy) + ".\n\n";
  for (const NeighbourComparison& n : card.neighbours) out += "- " + E(n.sentence) + "\n";
  return out + (card.neighbours.empty() ? "" : "\n");
}

std::string RunSection(const KernelReport& kernel, const Run& run, ChartLinks& links) {
  std::string out = "### " + E(run.Label()) + "\n\n" +
                    E(run.gpu.name + ", " + run.gpu.Arch() + ", " + run.Cards() + ": " + StatusSummary(run)) + "\n\n";
  if (!run.ceiling.known() && run.Best()) out += "> No ceiling for this run: " + E(run.ceiling.missing) + ".\n\n";
  out += WinnerCardMarkdown(run);
  out += links.Link(kernel.kernel, CandidatesChart(kernel, run));
  if (run.Best()) out += links.Link(kernel.kernel, OccupancyChart(kernel, run));
  if (const auto roofline = RooflineChart(kernel, run)) out += links.Link(kernel.kernel, *roofline);
  if (const auto pareto = ParetoChart(kernel, run)) out += links.Link(kernel.kernel, *pareto);
  for (const NamedChart& chart : ParameterCharts(kernel, run)) out += links.Link(kernel.kernel, chart);
  for (const NamedChart& chart : CounterCharts(kernel, run)) out += links.Link(kernel.kernel, chart);
  if (run.Best()) out += "#### Fastest candidates\n\n" + MdTable(TopTable(run, 10));
  const Table failures = FailuresTable(run);
  out += "#### Failures\n\n" +
         (failures.rows.empty() ? "Every candidate produced a correct result.\n\n" : MdTable(failures));
  return out;
}

std::string KernelSection(const KernelReport& kernel, ChartLinks& links, const std::function<void()>& run_done) {
  std::string out = "## " + E(kernel.kernel) + "\n\n";
  if (kernel.runs.empty()) return out + "No measurements of this kernel match the device and size filters.\n\n";
  if (kernel.stale_rows_left_out > 0)
    out += "> " + std::to_string(kernel.stale_rows_left_out) +
           " results of older versions of this template are left out (--include-stale shows them).\n\n";
  out += "### Best per GPU and size\n\n" + MdTable(BestTable(kernel));
  if (auto across = AcrossChart(kernel)) out += links.Link(kernel.kernel, *across);
  if (auto ceiling = CeilingChart(kernel)) out += links.Link(kernel.kernel, *ceiling);
  for (const SizeDispatch& sizes : SizeDispatches(kernel))
    out += "### Sizes on " + E(SizesHeading(sizes)) + "\n\n" + E(DispatchSummary(sizes)) +
           "\n\n#### Loss with the winners of other sizes\n\n" + MdTable(LossMatrixTable(sizes)) +
           "#### Dispatch table\n\n" + MdTable(DispatchTableTable(kernel, sizes));
  for (const Run& run : kernel.runs) {
    out += RunSection(kernel, run, links);
    if (run_done) run_done();
  }
  return out + "### Provenance\n\n" + MdTable(ProvenanceTable(kernel));
}

}  // namespace

std::string MarkdownEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '#':
      case '!':
      case '~':
        out += '\\';
        out += c;
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
  }
  return out;
}

MarkdownReport RenderMarkdown(const ReportData& data, const std::string& charts_folder,
                              const std::function<void()>& run_done) {
  MarkdownReport report;
  ChartLinks links(charts_folder, &report);
  std::string names;
  for (const KernelReport& k : data.kernels) names += (names.empty() ? "" : ", ") + k.kernel;
  std::string& md = report.markdown;
  md = "# Tuning report: " + E(names) + "\n\n" +
       E("Generated " + data.generated_at + " by tuner " + data.tool_version + " from " + data.database_path + " (" +
         std::to_string(data.CountRows()) + " measurements).") +
       "\n\n";
  md += "## Best per kernel, GPU and size\n\n";
  const Table summary = SummaryTable(data);
  md += summary.rows.empty() ? "No measurements match this report's filters.\n\n" : MdTable(summary);
  for (const KernelReport& kernel : data.kernels) md += KernelSection(kernel, links, run_done);
  return report;
}

}  // namespace tuner::report
