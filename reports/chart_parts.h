// Pieces the report's chart builders share: a chart of the report's size, series with hover texts,
// the palette, headroom for labels and the best candidate's marker.
#pragma once

#include <cstddef>
#include <string>

#include "common/svg_chart.h"
#include "reports/report_data.h"

namespace tuner::report {

const char* PaletteColor(std::size_t i);  // cycles through the palette
std::size_t PaletteSize();

Chart NewChart(const std::string& title, const std::string& x_label, const std::string& x_unit,
               const std::string& y_label, const std::string& y_unit);
// Adds a series (and its list of hover texts); the reference stays valid until the next AddSeries.
ChartSeries& AddSeries(Chart& chart, const std::string& name, SeriesStyle style, const std::string& color);
void AddPoint(Chart& chart, ChartSeries& series, ChartPoint point, const std::string& title);

// The throughput unit of a run ("GB/s"), also when no candidate passed.
std::string RunUnit(const Run& run);
// Room above the highest point for the best's label.
void Headroom(Chart& chart);
// A correct candidate's hover text: parameters, throughput, time, occupancy and resources.
std::string OkTitle(const Run& run, const db::MeasurementRecord& m);
std::string FailTitle(const Run& run, const db::MeasurementRecord& m);
// The best candidate of the run, ringed and labelled at x.
void MarkBest(Chart& chart, const Run& run, double x);

}  // namespace tuner::report
