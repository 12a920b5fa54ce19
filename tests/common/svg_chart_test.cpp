#include "common/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "text_search.h"

namespace tuner {
namespace {

using testing::Count;

Chart Sample() {
  Chart chart;
  chart.title = "Occupancy <vs> \"regs\" & co";
  chart.x_axis = {"Registers per thread", "", 0.0, std::nullopt};
  chart.y_axis = {"Occupancy", "%", 0.0, 100.0};
  chart.series.push_back({"occupancy", {{0, 100}, {32, 100}, {40, 75}, {64, 50}}, SeriesStyle::kStep, ""});
  chart.series.push_back({"measured", {{16, 90}, {48, 60}, {NAN, 10}}, SeriesStyle::kScatter, "red"});
  chart.markers.push_back({{48, 62.5}, "this kernel: 48"});
  return chart;
}

TEST(SvgChart, AScatterDotWithinAPixelOfAnEarlierOneIsNotDrawn) {
  Chart chart;
  chart.x_axis = {"rank", "", 0.0, 10000.0};
  chart.y_axis = {"GB/s", "", 0.0, 100.0};
  ChartSeries dots{"candidates", {}, SeriesStyle::kScatter, "blue"};
  chart.point_titles.emplace_back();
  for (int i = 0; i < 10000; ++i) {  // 10,000 ranks over some 600 pixels
    dots.points.push_back({static_cast<double>(i), 50});
    chart.point_titles.back().push_back("candidate " + std::to_string(i));
  }
  dots.points.push_back({5000, 90});  // apart from the rest: drawn
  chart.point_titles.back().push_back("apart");
  chart.series.push_back(dots);
  const std::string svg = RenderSvg(chart);
  const std::size_t circles = Count(svg, "<circle");
  EXPECT_GT(circles, 300u) << "one dot per pixel column is kept";
  EXPECT_LT(circles, 1000u);
  EXPECT_EQ(Count(svg, "<title>candidate 0</title>"), 1u) << "the first of overlapping dots keeps its text";
  EXPECT_EQ(Count(svg, "<title>candidate 1</title>"), 0u) << "under a pixel from candidate 0";
  EXPECT_EQ(Count(svg, "<title>apart</title>"), 1u);
}

// A strip chart: points of categories spread sideways; `equal` of them at one place of category 0.
Chart Strip(int equal) {
  Chart chart;
  chart.x_categories = {"32", "64"};
  chart.x_axis = {"TILE", "", std::nullopt, std::nullopt};
  chart.y_axis = {"GB/s", "", 0.0, 100.0};
  ChartSeries dots{"candidates", {}, SeriesStyle::kScatter, "blue"};
  for (int i = 0; i < equal; ++i) dots.points.push_back({0, 50, 0.2 - 0.4 * i / equal});
  for (int i = 1; i <= 9; ++i) dots.points.push_back({1, 10.0 * i, 0.02 * i});  // apart: each drawn
  dots.points.push_back({0, 51, 0.1});  // 2.8 pixels above the equal ones: drawn
  chart.series.push_back(dots);
  chart.series.push_back({"best of each value", {{0, 51}, {1, 90}}, SeriesStyle::kLine, "black"});
  chart.markers.push_back({{1, 90}, "best"});
  return chart;
}

// Judged where the dot is, not where the spread puts it: the first of the equal ones is drawn, at
// its own spread, and the chart is the same to the byte (axes, legend, every other dot) as if the
// others were not there.
TEST(SvgChart, AStripsDotsWithinAPixelOfAnEarlierOneAreDrawnOnceHoweverFarTheirSpread) {
  const std::string svg = RenderSvg(Strip(500));
  EXPECT_EQ(Count(svg, "<circle cx="), 1u + 9 + 1 + 1) << "one for the 500, nine apart, one above, the marker";
  EXPECT_EQ(svg, RenderSvg(Strip(1))) << "the first of the 500 keeps its place, and nothing else changes";
}

TEST(SvgChart, AStripsPointsAreDrawnAtTheirSpread) {
  Chart chart = Strip(1);
  const std::string svg = RenderSvg(chart);
  for (ChartPoint& p : chart.series[0].points) p.x += p.x_spread, p.x_spread = 0;
  EXPECT_EQ(svg, RenderSvg(chart)) << "a spread is an offset along x and nothing else";
}

TEST(SvgChart, XmlEscapeEscapesEverySpecialCharacter) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscape(std::string("x\x01y\tz")), "x?y\tz");
  EXPECT_EQ(XmlEscape("≤ 40"), "≤ 40");
}

TEST(SvgChart, NiceTicksAreRoundAndCoverTheRange) {
  EXPECT_EQ(NiceTicks(0, 100, 5), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(NiceTicks(0, 255, 8), (std::vector<double>{0, 50, 100, 150, 200, 250, 300}));
  const std::vector<double> small = NiceTicks(0.013, 0.061, 5);
  EXPECT_LE(small.front(), 0.013);
  EXPECT_GE(small.back(), 0.061);
  EXPECT_EQ(NiceTicks(5, 5, 4).size() >= 2, true);
}

TEST(SvgChart, RendersSeriesMarkerLegendAndEscapedText) {
  const std::string svg = RenderSvg(Sample());
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("Occupancy &lt;vs&gt; &quot;regs&quot; &amp; co"), std::string::npos);
  EXPECT_EQ(svg.find("<vs>"), std::string::npos);
  EXPECT_NE(svg.find("Occupancy (%)"), std::string::npos);
  EXPECT_NE(svg.find("Registers per thread"), std::string::npos);
  EXPECT_EQ(Count(svg, "<polyline"), 1u);
  EXPECT_EQ(Count(svg, "fill=\"red\""), 2u + 1u);  // two finite dots and the legend box
  EXPECT_NE(svg.find("this kernel: 48"), std::string::npos);
  EXPECT_NE(svg.find(">measured</text>"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(Count(svg, "<text"), Count(svg, "</text>"));
}

TEST(SvgChart, LogScalesTickThePowersOfTenAndLeaveOutValuesAtOrBelowZero) {
  Chart chart;
  chart.x_axis = {"Arithmetic intensity", "FLOP/byte", {}, {}, true};
  chart.y_axis = {"Performance", "GFLOP/s", {}, {}, true};
  chart.series.push_back({"candidates", {{0.5, 300}, {120, 30000}, {0, 10}, {-1, 5}}, SeriesStyle::kScatter, "red"});
  const std::string svg = RenderSvg(chart);
  EXPECT_EQ(Count(svg, "fill=\"red\""), 2u + 1u) << "two positive dots and the legend box";
  for (const char* tick : {">0.1</text>", ">1</text>", ">10</text>", ">100</text>", ">1000</text>", ">10000</text>",
                           ">100000</text>"})
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  EXPECT_EQ(svg.find(">0</text>"), std::string::npos) << "no zero on a log axis";
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(SvgChart, StepSeriesHoldsEachValueUntilTheNextPoint) {
  Chart chart;
  chart.x_axis.min = 0;
  chart.x_axis.max = 10;
  chart.y_axis.min = 0;
  chart.y_axis.max = 10;
  chart.width_px = 10 + 72 + 24;  // plot area 10 x 10 px
  chart.height_px = 10 + 44 + 56;
  chart.series.push_back({"", {{0, 10}, {10, 0}}, SeriesStyle::kStep, ""});
  const std::string svg = RenderSvg(chart);
  EXPECT_NE(svg.find("points=\"72.00,44.00 82.00,44.00 82.00,54.00 \""), std::string::npos) << svg;
}

TEST(SvgChart, CategoriesBarsAndHoverTexts) {
  Chart chart;
  chart.x_categories = {"H100\n4096", "H200\n4096", "<b>"};
  chart.series.push_back({"", {{0, 50}, {1, 75}, {2, 90}}, SeriesStyle::kBar, "green"});
  chart.point_titles = {{"first <one>", "", "third"}};
  const std::string svg = RenderSvg(chart);
  EXPECT_EQ(Count(svg, "fill=\"green\""), 3u);  // three bars, no legend entry
  EXPECT_NE(svg.find(">H100</text>"), std::string::npos);
  EXPECT_NE(svg.find(">4096</text>"), std::string::npos);  // the second line of a label
  EXPECT_NE(svg.find(">&lt;b&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>first &lt;one&gt;</title></rect>"), std::string::npos);
  EXPECT_EQ(Count(svg, "<title>"), 2u);
  EXPECT_EQ(svg.find(">0.5</text>"), std::string::npos);  // category ticks only, no numeric ones
}

TEST(SvgChart, BarSeriesStandSideBySide) {
  Chart chart;
  chart.x_categories = {"a"};
  chart.series.push_back({"first", {{0, 1}}, SeriesStyle::kBar, "green"});
  chart.series.push_back({"second", {{0, 2}}, SeriesStyle::kBar, "blue"});
  const std::string svg = RenderSvg(chart);
  const auto x_of = [&](const std::string& color) {
    const std::size_t at = svg.find("fill=\"" + color + "\"");
    return std::stod(svg.substr(svg.rfind("<rect x=\"", at) + 9));
  };
  EXPECT_LT(x_of("green") + 60, x_of("blue"));  // two 64 px bars, not one over the other
}

TEST(SvgChart, LegendAvoidsTheCornerWithPoints) {
  Chart chart;
  chart.x_axis.min = 0;
  chart.x_axis.max = 10;
  chart.y_axis.max = 10;
  chart.series.push_back({"falling", {{9, 9.5}, {9.5, 9.8}, {10, 10}}, SeriesStyle::kScatter, ""});
  const std::string svg = RenderSvg(chart);
  const std::size_t legend = svg.find("fill-opacity=\"0.85\"");
  ASSERT_NE(legend, std::string::npos);
  const std::size_t x = svg.rfind("<rect x=\"", legend);
  EXPECT_LT(std::stod(svg.substr(x + 9)), 360.0) << "the legend stayed over the points in the top right";
}

TEST(SvgChart, WriteSvgFileWritesOrNamesThePath) {
  const std::string path = ::testing::TempDir() + "svg_chart_test.svg";
  WriteSvgFile(Sample(), path);
  std::ifstream file(path);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, RenderSvg(Sample()));
  try {
    WriteSvgFile(Sample(), "/nonexistent-folder/x.svg");
    FAIL() << "wrote into a missing folder";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/x.svg"), std::string::npos);
  }
}

}  // namespace
}  // namespace tuner
