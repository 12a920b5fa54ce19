// The report generator on a database filled through the Store (no GPU): data selection, escaping of
// every string, CSV quoting, charts, missing data, and the `tuner report` command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "base/errors.h"
#include "cli_runner.h"
#include "db/query/measurement_fields.h"
#include "db_test_util.h"
#include "report_test_data.h"
#include "reports/ceiling.h"
#include "reports/csv_report.h"
#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/report_data.h"
#include "reports/report_output.h"
#include "text_search.h"

namespace tuner::report {
namespace {

using testing::kEvil;
namespace fs = std::filesystem;

using tuner::testing::Count;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// RFC 4180 records: fields split on commas outside quotes, records on CRLF outside quotes.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"')
      records.back().back() += '"', ++i;
    else if (c == '"')
      quoted = !quoted;
    else if (!quoted && c == ',')
      records.back().emplace_back();
    else if (!quoted && c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
      records.emplace_back(1), ++i;
    else
      records.back().back() += c;
  }
  if (records.back().size() == 1 && records.back()[0].empty()) records.pop_back();
  return records;
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::FillReportDatabase(db_path_); }

  ReportData Select(const ReportRequest& request = {}) {
    db::Store store = db::Store::Open(db_path_, db::OpenMode::kReadOnly);
    return SelectReportData(store, request);
  }

  db::testing::TempDir dir_;
  std::string db_path_ = dir_.File("results.db");
};

TEST_F(ReportTest, GroupsRowsIntoRunsWithTheirBest) {
  const ReportData data = Select();
  ASSERT_EQ(data.kernels.size(), 3u);
  const KernelReport& transpose = *std::find_if(data.kernels.begin(), data.kernels.end(),
                                                [](const KernelReport& k) { return k.kernel == "transpose"; });
  ASSERT_EQ(transpose.runs.size(), 4u);
  EXPECT_EQ(transpose.runs[0].gpu.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(transpose.runs[0].size_key, "4096x4096");  // numeric order of sizes
  EXPECT_EQ(transpose.runs[1].size_key, "8192x8192");
  EXPECT_EQ(transpose.parameter_names, (std::vector<std::string>{"TILE", "ROWS"}));
  const report::Run& run = transpose.runs[1];
  EXPECT_EQ(run.rows.size(), 15u);
  EXPECT_EQ(run.CountOk(), 12u);
  ASSERT_NE(run.Best(), nullptr);
  EXPECT_EQ(run.Best()->measurement.params_json, "{\"TILE\":64,\"ROWS\":1}");
  EXPECT_EQ(transpose.sweeps.size(), 4u);
}

// A run shows the rows of one timing mode: the one tuned last, or the one asked for; never both.
TEST_F(ReportTest, ARunShowsOneTimingMode) {
  {
    db::Store store = db::Store::Open(db_path_, db::OpenMode::kReadWrite);
    const auto gpu = store.EnsureGpu(db::testing::SampleGpu("GPU-1111-aaaa", "NVIDIA H100 80GB HBM3"));
    const auto templ = store.EnsureTemplate({"transpose", "hash-transpose-1", ""});
    const auto sweep = store.StartSweep(gpu, templ, db::testing::SampleSweep("8192x8192"));
    db::MeasurementRecord graph = db::testing::SampleMeasurement(16, 0.001);  // faster than any isolated row
    graph.timing_mode = "graph";
    graph.measured_at = "2099-01-01T00:00:00Z";
    store.AddMeasurement(sweep, graph);
  }
  const auto RunOf = [](const ReportData& data) {
    const KernelReport& transpose = *std::find_if(data.kernels.begin(), data.kernels.end(),
                                                  [](const KernelReport& k) { return k.kernel == "transpose"; });
    return transpose.runs[1];  // H100, 8192x8192
  };
  const report::Run latest = RunOf(Select());
  ASSERT_EQ(latest.rows.size(), 1u) << "only the graph row, tuned last";
  EXPECT_EQ(latest.rows[0].measurement.timing_mode, "graph");
  ReportRequest isolated;
  isolated.timing_mode = "isolated";
  const report::Run run = RunOf(Select(isolated));
  EXPECT_EQ(run.rows.size(), 15u);
  ASSERT_NE(run.Best(), nullptr);
  EXPECT_EQ(run.Best()->measurement.params_json, "{\"TILE\":64,\"ROWS\":1}") << "the graph row never ranks here";
}

// Two cards of one model that split a sweep (tune --gpus) are one run: the union of their
// candidates, each one's result from the card that measured it (of two, the faster); imported
// published results stay a run of their own.
TEST(ReportModelSweep, TheCardsOfOneModelAreOneRun) {
  std::vector<db::MeasurementRow> rows;
  for (const auto& [uuid, tile, time_ms] : std::vector<std::tuple<std::string, int, double>>{
           {"GPU-aaaa", 16, 2.0}, {"GPU-bbbb", 32, 1.0}, {"GPU-aaaa", 64, 3.0}, {"GPU-aaaa", 32, 1.1},
           {"imported-x", 8, 0.5}}) {
    db::MeasurementRow row;
    row.gpu = db::testing::SampleGpu(uuid);
    row.templ.hash = "h1";
    row.size_key = "8192x8192";
    row.measurement = db::testing::SampleMeasurement(tile, time_ms);
    rows.push_back(row);
  }
  const KernelReport report =
      GroupKernel("transpose", rows, {}, [](const db::GpuRecord& gpu) { return gpu.uuid == "imported-x"; });
  ASSERT_EQ(report.runs.size(), 2u);
  const report::Run& model = report.runs[0].cards.size() == 2 ? report.runs[0] : report.runs[1];
  EXPECT_EQ(model.cards, (std::vector<std::string>{"GPU-aaaa", "GPU-bbbb"}));
  EXPECT_EQ(model.rows.size(), 3u);
  ASSERT_EQ(model.set_aside.size(), 1u);
  EXPECT_EQ(model.set_aside[0].gpu.uuid, "GPU-aaaa") << "card A's slower time of TILE 32";
  ASSERT_NE(model.Best(), nullptr);
  EXPECT_EQ(model.Best()->gpu.uuid, "GPU-bbbb");
  EXPECT_EQ(model.Cards(), "2 cards: GPU-aaaa, GPU-bbbb");
  EXPECT_EQ(model.ShortCards(), "2 cards");
  ReportData data;
  data.kernels.push_back(report);
  EXPECT_NE(RenderHtml(data).find("2 cards: GPU-aaaa, GPU-bbbb"), std::string::npos);
  EXPECT_EQ(ParseCsv(RenderCsv(data)).size(), 1 + rows.size()) << "the CSV lists every measurement";
}

TEST_F(ReportTest, FiltersByDeviceAndSize) {
  ReportRequest request;
  request.kernels = {"transpose"};
  request.device = "h200";
  request.size_keys = {"8192x8192"};
  const ReportData data = Select(request);
  ASSERT_EQ(data.kernels.size(), 1u);
  ASSERT_EQ(data.kernels[0].runs.size(), 1u);
  EXPECT_EQ(data.kernels[0].runs[0].gpu.uuid, "GPU-2222-bbbb");
  request.kernels = {"nonexistent"};
  EXPECT_THROW(Select(request), UsageError);
}

TEST_F(ReportTest, TemplateValueNamesLabelParametersAndColourTheOtherCharts) {
  ReportRequest request;
  request.kernels = {"transpose"};
  request.labels["transpose"]["TILE"] = {{"16", "small"}, {"64", "large"}};
  const std::string html = RenderHtml(Select(request));
  EXPECT_NE(html.find("TILE=large ROWS=1"), std::string::npos);
  EXPECT_NE(html.find(">TILE=small<"), std::string::npos);                 // a legend entry of the ROWS chart
  EXPECT_NE(html.find(">large</text>"), std::string::npos);                // a category of the TILE chart
  EXPECT_EQ(RenderCsv(Select(request)).find("large"), std::string::npos);  // CSV keeps the stored values
}

TEST_F(ReportTest, HtmlEscapesEveryStringFromTheDatabase) {
  const std::string html = RenderHtml(Select());
  EXPECT_EQ(Lower(html).find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(Count(html, "<svg"), Count(html, "</svg>"));
  EXPECT_EQ(Count(html, "<table>"), Count(html, "</table>"));
}

TEST_F(ReportTest, HtmlIsSelfContained) {
  const std::string html = RenderHtml(Select());
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  EXPECT_NE(html.find("name=\"viewport\""), std::string::npos);
  // The only URL is the SVG namespace; nothing is fetched.
  EXPECT_EQ(Count(html, "http://") + Count(html, "https://"), Count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  for (const char* external : {"<link", "<img", "<iframe", "@import", "url(", "src="})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
}

TEST_F(ReportTest, HtmlHasEveryChartWithUnitsAndTheBestMarked) {
  const std::string html = RenderHtml(Select());
  EXPECT_EQ(Count(html, ">transpose: every candidate ("), 4u);
  EXPECT_EQ(Count(html, ">transpose: throughput vs occupancy ("), 4u);
  EXPECT_EQ(Count(html, ">transpose: effect of TILE ("), 4u);
  EXPECT_EQ(Count(html, ">transpose: effect of ROWS ("), 4u);
  EXPECT_EQ(Count(html, ">transpose: best across GPUs and sizes<"), 1u);
  EXPECT_NE(html.find(">Throughput (GB/s)<"), std::string::npos);
  EXPECT_NE(html.find(">Theoretical occupancy (%)<"), std::string::npos);
  EXPECT_NE(html.find(">best 625 GB/s<"), std::string::npos);  // 1000 / 1.6 ms: TILE=64 ROWS=1, H100, 8192x8192
  EXPECT_NE(html.find(">limited by registers<"), std::string::npos);
  EXPECT_NE(html.find(">compile_error<"), std::string::npos);  // a status in a legend
}

TEST_F(ReportTest, HtmlTablesListTheBestFailuresAndProvenance) {
  const std::string html = RenderHtml(Select());
  EXPECT_NE(html.find("TILE=64 ROWS=1"), std::string::npos);
  EXPECT_NE(html.find("2048 threads per block exceed the limit of 1024"), std::string::npos);
  EXPECT_NE(html.find("NVRTC failed: &lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("GPU-2222-bbbb"), std::string::npos);
  EXPECT_NE(html.find(">Provenance<"), std::string::npos);
  EXPECT_NE(html.find("tuner tune transpose"), std::string::npos);
}

TEST_F(ReportTest, MissingDataIsExplainedNotDrawn) {
  const std::string html = RenderHtml(Select());
  // matmul: every candidate failed; no ceilings are stored in this database.
  EXPECT_NE(html.find("No candidate of this run produced a correct result"), std::string::npos);
  EXPECT_EQ(html.find(">matmul: throughput vs occupancy (H100"), std::string::npos);
  EXPECT_NE(html.find(">matmul: every candidate ("), std::string::npos);
  EXPECT_NE(html.find("No ceiling for this run: the sweep stored no copy bandwidth"), std::string::npos);  // 4096x4096
  for (const char* bad : {">nan", ">-nan", "\"nan", "\"-nan", ">inf", "\"inf", "NaN"})
    EXPECT_EQ(html.find(bad), std::string::npos) << bad;
  ReportRequest none;
  none.device = "no such GPU";
  const std::string empty = RenderHtml(Select(none));
  EXPECT_NE(empty.find("No measurements match this report"), std::string::npos);
}

TEST_F(ReportTest, CeilingsAreChartedWhereKnown) {
  const std::string html = RenderHtml(Select());
  EXPECT_EQ(Count(html, ">transpose: best as a share of the device ceiling<"), 1u);
  EXPECT_EQ(Count(html, ">matmul: best as a share of the device ceiling<"), 1u);
  EXPECT_NE(html.find("25.0% of 2500 GB/s"), std::string::npos);      // 625 GB/s on the H100 at 8192x8192
  EXPECT_NE(html.find("62.5% of 1250 GB/s"), std::string::npos);      // 781 GB/s on the H200
  EXPECT_NE(html.find("49.3% of 66908 GFLOP/s"), std::string::npos);  // 33000 of 132 x 128 x 2 x 1.98 GHz
  EXPECT_NE(html.find(">ceiling 2500 GB/s<"), std::string::npos);     // the line on the candidates chart
  EXPECT_NE(html.find("132 SMs x 128 lanes x 2 (FMA) x 1980 MHz"), std::string::npos);
}

TEST(ReportCeiling, Fp32LanesAndUnknownCeilings) {
  EXPECT_EQ(Fp32LanesPerSm(8, 0), 64);
  EXPECT_EQ(Fp32LanesPerSm(7, 5), 64);
  EXPECT_EQ(Fp32LanesPerSm(8, 6), 128);
  EXPECT_EQ(Fp32LanesPerSm(9, 0), 128);
  const Ceiling copy = CeilingFor("GB/s", db::testing::SampleGpu(), db::testing::SampleSweep());
  EXPECT_FALSE(copy.known());
  EXPECT_FALSE(copy.missing.empty());
  EXPECT_FALSE(CeilingFor("items/s", db::testing::SampleGpu(), db::testing::SampleSweep()).known());
  EXPECT_FALSE(CeilingFor("GFLOP/s", db::testing::SampleGpu(), db::testing::SampleSweep()).known());  // no clock
  db::GpuRecord a100 = db::testing::SampleGpu();
  a100.cc_major = 8;
  a100.sm_count = 108;
  a100.sm_clock_mhz = 1410;
  EXPECT_NEAR(Fp32PeakGflops(a100), 19491.8, 0.1);  // the A100's 19.5 TFLOP/s
  db::SweepRecord sweep = db::testing::SampleSweep();
  sweep.copy_gbps = 3000;
  EXPECT_EQ(CeilingFor("GB/s", a100, sweep).value, 3000);
}

TEST(ReportCeiling, TheCeilingOfTheBoundThatApplies) {
  const report::Run run = testing::PointInPolygonRun();
  Ceiling compute_bound = run.ceiling;
  ApplyBound(compute_bound, run.rows[0].measurement);
  EXPECT_FALSE(compute_bound.known()) << "a compute-bound kernel is not measured against the copy bandwidth";
  EXPECT_EQ(compute_bound.bound, "compute-bound: SM 75% of peak");
  EXPECT_EQ(compute_bound.missing,
            "the best is compute-bound: SM 75% of peak, so the device-to-device copy bandwidth measured in the same "
            "sweep is not its limit");
  EXPECT_EQ(OfCeilingText(compute_bound, 250), "compute-bound: SM 75% of peak");
  Ceiling memory_bound = run.ceiling;
  ApplyBound(memory_bound, run.rows[1].measurement);
  EXPECT_EQ(OfCeilingText(memory_bound, 2700), "90.0% of 3000 GB/s");
  EXPECT_EQ(memory_bound.bound, "memory-bound: DRAM 88% of peak, at the limit");
  Ceiling not_counted = run.ceiling;
  ApplyBound(not_counted, run.rows[2].measurement);
  EXPECT_EQ(OfCeilingText(not_counted, 2700), "90.0% of 3000 GB/s");
  EXPECT_EQ(OfCeilingText(Ceiling{}, 2700), "unknown");
}

// The report of a compute-bound winner measured in GB/s: its headroom instead of the copy bandwidth,
// its speed of light on the card, the counted candidates on a roofline.
TEST(ReportSpeedOfLight, TheReportGivesTheWinnersHeadroomAndARoofline) {
  std::vector<db::MeasurementRow> rows = testing::PointInPolygonRun().rows;
  for (db::MeasurementRow& row : rows) {
    row.gpu = db::testing::SampleGpu("GPU-1111-aaaa", "NVIDIA H100 80GB HBM3");
    row.sweep = db::testing::SampleSweep("1048576");
    row.sweep.copy_gbps = 3000;
    row.size_key = "1048576";
  }
  ReportData data;
  data.kernels.push_back(GroupKernel("pip", rows));
  const std::string html = RenderHtml(data);
  EXPECT_NE(html.find(">compute-bound: SM 75% of peak</td>"), std::string::npos) << "the Of ceiling column";
  EXPECT_EQ(html.find("% of 3000 GB/s"), std::string::npos);
  EXPECT_NE(html.find("Its speed of light: compute-bound: SM 75% of peak (SM 75%, DRAM 9%, L2 30%, L1 35%)."),
            std::string::npos);
  EXPECT_NE(html.find("No ceiling for this run: the best is compute-bound"), std::string::npos);
  EXPECT_NE(html.find(">pip: roofline (H100 \u00b7 1048576)<"), std::string::npos);
  const MarkdownReport md = RenderMarkdown(data, "charts");
  EXPECT_NE(md.markdown.find("Its speed of light: compute-bound: SM 75% of peak"), std::string::npos);
  EXPECT_NE(md.markdown.find("| compute-bound: SM 75% of peak |"), std::string::npos);
  EXPECT_EQ(std::count_if(md.charts.begin(), md.charts.end(),
                          [](const auto& chart) { return chart.relative_path.find("roofline") != std::string::npos; }),
            1);
}

TEST(ReportCsv, FieldsAreQuotedOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("{\"TILE\":32,\"ROWS\":4}"), "\"{\"\"TILE\"\":32,\"\"ROWS\"\":4}\"");
}

TEST_F(ReportTest, CsvHasOneRecordPerMeasurementAndRoundTrips) {
  const std::string csv = RenderCsv(Select());
  const auto records = ParseCsv(csv);
  ASSERT_EQ(records.size(), 1u + 4 * 15 + 2 + 2 + 1);
  const std::vector<std::string>& header = records[0];
  for (const auto& record : records) ASSERT_EQ(record.size(), header.size());
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  bool found_error_text = false;
  for (const auto& record : records) {
    found_error_text |= record[column("error_text")] == "line 1: error, \"quoted\"\nline 2: " + kEvil;
    if (record[column("kernel")] == kEvil && record[column("status")] == "ok") {
      EXPECT_EQ(record[column("params_json")], "{\"" + kEvil + "\":\"" + kEvil + "\"}");
    }
  }
  EXPECT_TRUE(found_error_text);
  EXPECT_EQ(records[1][column("kernel")], kEvil);  // sorted by kernel name like the store
}

void ParseCell(const std::string& text, std::string* value) { *value = text; }
void ParseCell(const std::string& text, int* value) { *value = std::stoi(text); }
void ParseCell(const std::string& text, std::int64_t* value) { *value = std::stoll(text); }
void ParseCell(const std::string& text, double* value) { *value = std::stod(text); }
void ParseCell(const std::string& text, CandidateStatus* value) { *value = CandidateStatusFromText(text); }

// Every field of the measurement record has a column under its name holding its stored value, the
// first 36 columns keep their places and the fields added later follow them.
TEST(ReportCsv, HasEveryFieldOfTheRecord) {
  db::MeasurementRow row;
  row.measurement = db::testing::EveryFieldSet();
  report::Run run;
  run.rows = {row};
  ReportData data;
  data.kernels.resize(1);
  data.kernels[0].runs = {run};
  const auto records = ParseCsv(RenderCsv(data));
  ASSERT_EQ(records.size(), 2u);
  const std::vector<std::string>& header = records[0];
  ASSERT_EQ(records[1].size(), header.size());
  EXPECT_EQ(header[0], "kernel");
  EXPECT_EQ(header[35], "error_text");
  EXPECT_EQ(std::vector<std::string>(header.begin() + 36, header.end()),
            (std::vector<std::string>{"worker_kills", "counters_json", "energy_j", "power_w", "energy_launch_ms",
                                      "perf_per_joule", "timing_mode", "tie_ms", "tie_rank", "toolchain",
                                      "revalidation"}));
  const auto cell = [&](const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    return at == header.end() ? "(no column " + name + ")" : records[1][at - header.begin()];
  };
  EXPECT_EQ(cell("status"), "wrong_result");
  EXPECT_EQ(cell("time_ms_median"), "7.5");  // the 5th field: 5 x 1.5
  db::MeasurementRecord back;
  for (const db::MeasurementField& field : db::MeasurementFields())
    db::VisitField(field, back, [&](auto& value) { ParseCell(cell(field.name), &value); });
  EXPECT_EQ(db::testing::DifferingFields(back, row.measurement), std::vector<std::string>());
}

TEST(ReportMarkdown, EscapeKeepsTextAsText) {
  EXPECT_EQ(MarkdownEscape(kEvil), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(MarkdownEscape("a|b *c* [d](e) `f`\nnext"), "a\\|b \\*c\\* \\[d\\](e) \\`f\\` next");
}

// transpose is tuned at two sizes on each GPU, with the same ranking at both: one configuration
// serves both sizes. The evil kernel has one size: no such section.
TEST_F(ReportTest, SizesShowTheLossMatrixAndTheDispatchTable) {
  const std::string markdown = RenderMarkdown(Select(), "").markdown;
  EXPECT_EQ(Count(markdown, "### Sizes on "), 2u) << markdown;
  EXPECT_NE(markdown.find("### Sizes on H100 \u00b7 2 sizes"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("1 configuration keeps all 2 sizes within 5.0% of their own best (exact smallest set)"),
            std::string::npos);
  EXPECT_NE(markdown.find("| Size / winner of | 4096x4096 | 8192x8192 |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| 4096x4096 | best | 0% |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| Size | Entry | Parameters | Time (median) | Own best | Loss |"), std::string::npos)
      << markdown;
  const std::string html = RenderHtml(Select());
  EXPECT_EQ(Count(html, "<h4>Dispatch table</h4>"), 2u);
  EXPECT_EQ(Count(html, "<h4>Loss with the winners of other sizes</h4>"), 2u);
}

TEST_F(ReportTest, MarkdownHasTablesAndLinksEveryChartFile) {
  const MarkdownReport report = RenderMarkdown(Select(), "report-charts");
  EXPECT_EQ(report.markdown.find("<script"), std::string::npos);
  EXPECT_NE(report.markdown.find("| Kernel | GPU | Size |"), std::string::npos);
  EXPECT_GE(report.charts.size(), 4u * 4 + 1);
  for (const ChartFile& chart : report.charts) {
    EXPECT_EQ(chart.relative_path.rfind("report-charts/", 0), 0u);
    EXPECT_EQ(chart.relative_path.find_first_of("<>\"' "), std::string::npos) << chart.relative_path;
    EXPECT_NE(report.markdown.find("](" + chart.relative_path + ")"), std::string::npos);
    EXPECT_EQ(chart.svg.find("<script"), std::string::npos);
  }
  EXPECT_TRUE(RenderMarkdown(Select(), "").charts.empty());
}

TEST_F(ReportTest, WriteReportWritesMarkdownWithItsChartsFolder) {
  const std::string path = dir_.File("out.md");
  std::ostringstream unused;
  const std::vector<std::string> written = WriteReport(Select(), ReportFormat::kMarkdown, path, unused);
  ASSERT_GT(written.size(), 1u);
  EXPECT_EQ(written[0], path);
  EXPECT_TRUE(fs::is_directory(dir_.File("out-charts")));
  for (const std::string& file : written) EXPECT_TRUE(fs::is_regular_file(file)) << file;
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path()))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  std::ostringstream out;
  EXPECT_TRUE(WriteReport(Select(), ReportFormat::kCsv, "-", out).empty());
  EXPECT_EQ(out.str().rfind("kernel,template_hash,", 0), 0u);
  // `tuner report` refuses a folder that does not exist (cli's RequireOutputPath); the library makes it.
  WriteReport(Select(), ReportFormat::kHtml, dir_.File("new/x.html"), out);
  EXPECT_TRUE(fs::is_regular_file(dir_.File("new/x.html")));
}

TEST(ReportOutput, FormatsAndPaths) {
  EXPECT_EQ(ParseFormat("md"), ReportFormat::kMarkdown);
  EXPECT_THROW(ParseFormat("pdf"), UsageError);
  EXPECT_EQ(FormatOfPath("x/r.csv"), ReportFormat::kCsv);
  EXPECT_EQ(FormatOfPath("r.markdown"), ReportFormat::kMarkdown);
  EXPECT_EQ(FormatOfPath("r.htm"), ReportFormat::kHtml);
  EXPECT_EQ(DefaultOutputPath(ReportFormat::kCsv), "report.csv");
  EXPECT_EQ(ChartsFolderOf("out/report.md"), "out/report-charts");
}

TEST_F(ReportTest, CommandLineWritesTheReportAndRefusesBadUsage) {
  using tuner::testing::RunTuner;
  const std::string html = dir_.File("r.html");
  const auto ok = RunTuner("report transpose --device H100 --db " + db_path_ + " -o " + html);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(fs::is_regular_file(html));
  EXPECT_NE(ok.err.find("wrote " + html), std::string::npos);

  const auto csv = RunTuner("report --format csv -o - --db " + db_path_);
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(ParseCsv(csv.out).size(), 1u + 4 * 15 + 2 + 2 + 1);

  const std::string never = dir_.File("never.html");
  const auto bad_format = RunTuner("report --format pdf --db " + db_path_ + " -o " + never);
  EXPECT_EQ(bad_format.exit_code, 2);
  EXPECT_NE(bad_format.err.find("--format 'pdf'"), std::string::npos);
  const auto unknown = RunTuner("report nonexistent --db " + db_path_ + " -o " + never);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("stored: "), std::string::npos);
  const auto nothing = RunTuner("report --device B200 --db " + db_path_ + " -o " + never);
  EXPECT_EQ(nothing.exit_code, 1);
  EXPECT_NE(nothing.err.find("GPU matching 'B200'"), std::string::npos);
  EXPECT_FALSE(fs::exists(never));
  EXPECT_EQ(RunTuner("report --help").exit_code, 0);
}

// Ctrl-C (here one already pending as the command starts): a line saying so, exit 130, and no
// report or temporary file left behind.
TEST_F(ReportTest, InterruptStopsWithASummaryAndWritesNothing) {
  const std::string html = dir_.File("interrupted.html");
  tuner::testing::SpawnedTuner run({"report", "--db", db_path_, "-o", html}, {}, true);
  const auto result = run.Wait();
  EXPECT_EQ(result.exit_code, 130) << result.err;
  EXPECT_EQ(result.err, "tuner report: interrupted while reading the database; nothing written\n");
  EXPECT_FALSE(fs::exists(html));
  EXPECT_FALSE(fs::exists(html + ".tmp"));
}

}  // namespace
}  // namespace tuner::report
