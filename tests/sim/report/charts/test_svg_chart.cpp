// The SVG chart's layout on cases the sweep plots do not reach, worked out by hand.
#include <catch2/catch.hpp>

#include "sim/report/charts/svg_chart.h"

using namespace memsim;

TEST_CASE("svg chart: a categorical x axis stays linear when asked for a log scale") {
    // Before: the categories' half-step padding put the axis' low end below 0 (0.25 - 0.5)
    // and the log ticks of a negative range never ended.
    Chart c;
    c.x.categorical = true;
    c.x.log_scale = true;
    c.x.label = "x";
    c.series.push_back({"s", {{0.25, 1, ""}, {2, 3, ""}}});
    const std::string svg = render_svg(c);
    // x: -0.25 .. 2.5 over 480 px from 84: 0.25 -> 171.27, 2 -> 476.73. y: 1 .. 3 padded by
    // 6% of the span (0.88 .. 3.12) over 320 px up from 368: 1 -> 350.86, 3 -> 65.14.
    CHECK(svg.find("<path d=\"M171.27,350.86L476.73,65.14\"") != std::string::npos);
    CHECK(svg.find("log scale") == std::string::npos);
    CHECK(svg.find("nan") == std::string::npos);
}
