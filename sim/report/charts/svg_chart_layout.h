// Where everything of a sweep chart goes, worked out before any SVG is written
// (svg_chart.cpp draws it): the data's extent and the two scales, the x ticks and how
// their labels fit, the points several series share, the legend's entries and the size
// of the picture. Internal to svg_chart.cpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/report/charts/svg_chart.h"

namespace memsim::chart_layout {

constexpr double kLeft = 84, kTop = 48, kPlotW = 480, kPlotH = 320, kLegendGap = 22, kLegendW = 270;
constexpr double kPlotBottom = kTop + kPlotH, kPlotRight = kLeft + kPlotW, kLegendX = kPlotRight + kLegendGap;
constexpr double kLineH = 15, kTickFont = 12;
constexpr std::size_t kLegendChars = 31;  // 31 x 7.7 px (the widest DejaVu Sans glyphs at 12 px) < kLegendW - 26

// Data values to pixels along one axis.
struct Scale {
    double lo = 0, hi = 1, from = 0, to = 1;
    bool log = false;
    double operator()(double v) const {
        const double f = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        return from + f * (to - from);
    }
};

struct Range {
    double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
};

// The x ticks drawn, and how their labels fit: wrapped to `chars` per line, or upright
// (`turned`); `depth` is the room they take below the plot.
struct XTicks {
    std::vector<std::pair<double, std::string>> at;
    std::size_t chars = 0;
    bool turned = false;
    double depth = 0;
};

// Coordinates several series share: one marker, labelled with all their names.
struct SharedPoints {
    std::map<std::pair<double, double>, std::vector<std::size_t>> owners;  // (x, y) -> series, when merged
    std::vector<std::vector<std::size_t>> groups;  // distinct sets of series sharing a point, first seen first
    bool is_shared(const ChartPoint& p) const;
    std::size_t group_of(const std::vector<std::size_t>& series) const;  // its letter's index
};

// What a legend entry draws at its left.
enum class Sample { Series, Group, Marked, Reference, Identity, Front, Failed };

struct LegendEntry {
    std::vector<std::string> lines;
    Sample sample = Sample::Series;
    std::size_t index = 0;  // the series (Series) or the group (Group)
};

struct Layout {
    Range data;  // the data's own extent (before an axis is stretched to 0)
    Scale X, Y;
    bool ylog = false;
    XTicks xticks;
    SharedPoints shared;
    std::vector<LegendEntry> legend;  // series, shared groups, then the marked point, reference, identity, front, failures
    double width = 0, height = 0;
};

Layout lay_out(const Chart& c);

// "A", "B", ... "Z", "AA", ...
std::string group_letter(std::size_t i);

}  // namespace memsim::chart_layout
