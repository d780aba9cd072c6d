// A small static SVG chart (lines with markers, or a scatter) for sweep plots: no
// scripts, fixed number formatting, so the same data gives the same bytes.
//
// Legends and category labels are wrapped, never cut: the legend is a column beside
// the plot and the chart grows to hold it. Series differ in colour, marker and dash
// (chart_style.h). The y axis spans the data (not always from 0) and turns
// logarithmic when the data span 20x or more, or when asked.
//
// DOM contract (tests rely on it): each series is <g class="series" data-name="NAME"
// data-style="COLOR MARKER DASH">; its legend entry is <g class="legend-entry"> with a
// <text class="legend-text"> per line; category tick labels are <text class="tick-label">;
// a marker shared by several series is <g class="shared-point" data-count="N" data-group="A">
// (a white ring with the letter of its set of series, which the legend spells out); the
// Pareto front is <path class="pareto-front">, failed points <path class="failed"> (crosses:
// no series marker is a cross), the marked point <circle class="marked">, the reference line
// <line class="reference">, the line y = x <line class="identity">.
//
// Given x ticks of a numeric axis that would not fit side by side (a search's points
// crowd near its answer) give way to round-number ticks. A linear axis that does not
// start at 0 and spans less than 10% of its top says so in its title, so that a 1%
// difference is not read as a trade-off.
#pragma once

#include <optional>
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
    bool log_scale = false;  // y: also turned on by the chart when the data span 20x or more
    std::vector<std::pair<double, std::string>> ticks;  // empty: round-number ticks in `unit_scale` units
    double unit_scale = 1.0;                            // values are divided by this for tick labels
    bool categorical = false;
    bool include_zero = false;  // the axis starts at 0, a meaningful origin (a linear axis)
};

struct Chart {
    std::string title;
    ChartAxis x, y;
    std::vector<ChartSeries> series;
    std::vector<ChartPoint> failures;  // points without a result: red crosses at the bottom edge (x known)
    std::vector<ChartPoint> front;     // a highlighted step line (the Pareto front), empty for none
    // Points of several series at the same (x, y) are drawn as one ring with a letter, and
    // the legend says which series each letter stands for, instead of hiding each other.
    bool merge_identical = false;
    std::optional<double> reference_y;  // a horizontal reference line (e.g. 1.0 = the no-policy run)
    std::string reference_label;
    bool y_auto_log = true;             // log y when the data span 20x or more
    std::optional<ChartPoint> marked;   // a point ringed and named in the legend (find's answer, compare's best)
    std::string marked_label;
    std::string identity_label;         // not empty: the line y = x, named so in the legend
};

std::string render_svg(const Chart& chart);

}  // namespace memsim
