// A small static SVG chart (lines with markers, or a scatter) for sweep plots: no
// scripts, fixed number formatting, so the same data gives the same bytes.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace memsim {

struct ChartPoint {
    double x = 0, y = 0;
    std::string tip;  // shown on hover (<title>)
};

struct ChartSeries {
    std::string name;
    std::vector<ChartPoint> points;  // drawn in x order
    bool connect = true;             // a line through the points, or markers only
};

struct ChartAxis {
    std::string label;
    bool log_scale = false;
    std::vector<std::pair<double, std::string>> ticks;  // empty: round-number ticks in `unit_scale` units
    double unit_scale = 1.0;                            // values are divided by this for tick labels
    bool categorical = false;
};

struct Chart {
    std::string title;
    ChartAxis x, y;
    std::vector<ChartSeries> series;
    std::vector<ChartPoint> failures;  // points without a result: a red cross on the x axis
    std::vector<ChartPoint> front;     // a highlighted step line (the Pareto front), empty for none
};

std::string render_svg(const Chart& chart);

}  // namespace memsim
