// A small, self-contained SVG chart writer: line, step and scatter series over numeric axes, with
// ticks, axis labels with units, marked points and a legend. Every text is XML-escaped. Used by
// `tuner occupancy --svg` and meant for the HTML report too (it depends on nothing of the tuner).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tuner {

struct ChartPoint {
  double x = 0.0;
  double y = 0.0;
  // Drawn this far (in x units) to the side of x: a strip chart spreads the points of one category
  // sideways so that they do not cover each other. Whether a dot is drawn is judged at (x, y).
  double x_spread = 0.0;
};

enum class SeriesStyle {
  kLine,     // straight segments between points, in x order
  kStep,     // each value holds until the next point's x (occupancy against an integer input)
  kScatter,  // one dot per point, but none within a pixel of an earlier dot of its series (before spreading)
  kBar,      // a bar from the x axis up to each point (best with x_categories); bar series stand side by side
};

struct ChartSeries {
  std::string name;  // legend entry; an empty name stays out of the legend
  std::vector<ChartPoint> points;
  SeriesStyle style = SeriesStyle::kLine;
  std::string color;  // any SVG colour; empty: the next colour of the palette
};

// A point called out on the chart, e.g. the current configuration.
struct ChartMarker {
  ChartPoint at;
  std::string label;
};

struct ChartAxis {
  std::string label;               // "Registers per thread"
  std::string unit;                // "bytes", "%"; shown as "label (unit)"; may be empty
  std::optional<double> min, max;  // unset: from the data, widened to whole ticks
  // Logarithmic: ticks at the powers of ten, values <= 0 left out (a roofline's axes).
  bool log_scale = false;
};

struct Chart {
  std::string title;
  ChartAxis x_axis;
  ChartAxis y_axis;
  std::vector<ChartSeries> series;
  std::vector<ChartMarker> markers;
  int width_px = 720;
  int height_px = 420;
  // Non-empty: x is a category index 0..n-1 (values, GPUs, sizes) and the ticks are these labels;
  // '\n' splits a label into lines. The x range is then [-0.5, n - 0.5].
  std::vector<std::string> x_categories;
  // point_titles[s][i]: hover text of point i of series s (an SVG <title>); may be shorter or empty.
  std::vector<std::vector<std::string>> point_titles;
};

// &, <, >, " and ' as entities; control characters XML 1.0 forbids become '?'.
std::string XmlEscape(const std::string& text);

// Round tick values (1, 2 or 5 times a power of ten apart) covering [lo, hi], at most about
// max_ticks + 1 of them, from a multiple of the step at or below lo to one at or above hi.
std::vector<double> NiceTicks(double lo, double hi, int max_ticks);

// The chart as one SVG document. Non-finite points are skipped.
std::string RenderSvg(const Chart& chart);

// Writes RenderSvg(chart) to path; throws std::runtime_error naming the path when that fails.
void WriteSvgFile(const Chart& chart, const std::string& path);

}  // namespace tuner
