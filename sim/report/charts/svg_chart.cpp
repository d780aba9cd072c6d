#include "sim/report/charts/svg_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/charts/chart_style.h"
#include "sim/report/charts/svg_chart_layout.h"

namespace memsim {

using namespace chart_layout;

namespace {

std::string text_lines(double x, double y, const std::vector<std::string>& lines, const std::string& attrs, const char* cls) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += fmt::format("<text class=\"{}\" x=\"{:.2f}\" y=\"{:.2f}\"{}>{}</text>\n", cls, x, y + kLineH * static_cast<double>(i), attrs,
                           xml_escape(lines[i]));
    return out;
}

// ", not from 0: 28.6 to 29 (a 1.4% span)" for a linear axis whose data span less than a
// tenth of its top; "" otherwise.
std::string narrow_note(double lo, double hi, bool log, bool categorical, double unit_scale) {
    if (log || categorical || !(lo > 0) || !(hi > lo) || (hi - lo) / hi >= 0.1) return "";
    return fmt::format(", not from 0: {} to {} (a {:.1f}% span)", number_label(lo / unit_scale), number_label(hi / unit_scale),
                       (hi - lo) / hi * 100);
}

std::string dash_attr(const SeriesStyle& style) {
    return style.dash[0] ? fmt::format(" stroke-dasharray=\"{}\"", style.dash) : "";
}

// The white ring with a group's letter (a shared point, and its legend sample).
std::string group_ring(double x, double y, const std::string& letter) {
    return fmt::format(
        "<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"7\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"2\"/>"
        "<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" font-size=\"9\" font-weight=\"bold\">{}</text>",
        x, y, x, y + 3, letter);
}

// The picture's frame and the title, on up to two lines.
std::string svg_head(const Chart& c, const Layout& l) {
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" viewBox=\"0 0 {0} {1:.0f}\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
        l.width, std::ceil(l.height));
    const std::vector<std::string> title = wrap_text(c.title, 84);
    for (std::size_t i = 0; i < title.size() && i < 2; ++i)
        svg += fmt::format(
            "<text class=\"title\" x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\" font-size=\"{}\" "
            "font-weight=\"bold\">{}</text>\n",
            l.width / 2, title.size() == 1 ? 24 : 17 + 17 * static_cast<int>(i), title.size() == 1 ? 15 : 13,
            xml_escape(title.size() > 2 && i == 1 ? c.title.substr(title[0].size()) : title[i]));
    return svg;
}

// y grid and labels, in the unit the label shows (MiB, ms).
std::string y_grid(const ChartAxis& axis, const Layout& l) {
    const Scale& Y = l.Y;
    std::vector<double> ticks;
    if (l.ylog) {
        ticks = log_ticks(Y.lo, Y.hi);
    } else {
        ticks = linear_ticks(Y.lo / axis.unit_scale, Y.hi / axis.unit_scale, 5);
        for (double& v : ticks) v *= axis.unit_scale;
    }
    std::string svg;
    for (double t : ticks) {
        svg += fmt::format("<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e6e6e6\"/>\n", kLeft,
                           kPlotRight, Y(t), Y(t));
        svg += fmt::format("<text class=\"y-tick\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6,
                           Y(t) + 4, number_label(t / axis.unit_scale));
    }
    return svg;
}

std::string x_grid(const Layout& l) {
    std::string svg;
    for (const auto& [t, label] : l.xticks.at) {
        const double x = l.X(t);
        svg += fmt::format("<line x1=\"{0:.2f}\" x2=\"{0:.2f}\" y1=\"{1:.2f}\" y2=\"{2:.2f}\" stroke=\"#e6e6e6\"/>\n", x, kTop,
                           kPlotBottom);
        if (l.xticks.turned)
            // Upright (turned a quarter): neighbours' boxes stay apart however long the labels are.
            svg += fmt::format(
                "<text class=\"tick-label\" transform=\"translate({:.2f},{:.2f}) rotate(-90)\" text-anchor=\"end\">{}</text>\n",
                x + 4, kPlotBottom + 8, xml_escape(label));
        else svg += text_lines(x, kPlotBottom + 16, wrap_text(label, l.xticks.chars), " text-anchor=\"middle\"", "tick-label");
    }
    return svg;
}

// The plot's border and the axes' titles (a log scale or a narrow span said there).
std::string axis_titles(const Chart& c, const Layout& l) {
    std::string svg = fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n", kLeft,
                                  kTop, kPlotW, kPlotH);
    svg += fmt::format(
        "<text class=\"axis-title\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n", kLeft + kPlotW / 2,
        kPlotBottom + 12 + l.xticks.depth + 20,
        xml_escape(c.x.label + (l.X.log ? " (log scale)" : "") +
                   (c.x.include_zero ? "" : narrow_note(l.data.xlo, l.data.xhi, l.X.log, c.x.categorical, c.x.unit_scale))));
    svg += fmt::format(
        "<text class=\"axis-title\" transform=\"translate(18,{:.2f}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
        kTop + kPlotH / 2,
        xml_escape(c.y.label + (l.ylog ? " (log scale)" : "") +
                   (c.y.include_zero ? "" : narrow_note(l.data.ylo, l.data.yhi, l.ylog, false, c.y.unit_scale))));
    return svg;
}

// The reference line, the line y = x and the Pareto front, under the series.
std::string guide_lines(const Chart& c, const Layout& l) {
    const Scale &X = l.X, &Y = l.Y;
    std::string svg;
    if (c.reference_y)
        svg += fmt::format(
            "<line class=\"reference\" x1=\"{}\" x2=\"{}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#555\" stroke-width=\"1.5\" "
            "stroke-dasharray=\"2 4\"/>\n",
            kLeft, kPlotRight, Y(*c.reference_y), Y(*c.reference_y));
    if (!c.identity_label.empty()) {
        // y = x over the part of the plot where both axes have the value.
        const double lo = std::max(X.lo, Y.lo), hi = std::min(X.hi, Y.hi);
        if (lo < hi)
            svg += fmt::format("<line class=\"identity\" x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#888\" "
                               "stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>\n", X(lo), X(hi), Y(lo), Y(hi));
    }
    if (c.front.size() > 1) {
        std::string d;
        for (std::size_t i = 0; i < c.front.size(); ++i) {
            if (i == 0) d += fmt::format("M{:.2f},{:.2f}", X(c.front[i].x), Y(c.front[i].y));
            else d += fmt::format("H{:.2f}V{:.2f}", X(c.front[i].x), Y(c.front[i].y));
        }
        svg += fmt::format("<path class=\"pareto-front\" d=\"{}\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" "
                           "stroke-dasharray=\"5 3\"/>\n", d);
    }
    return svg;
}

// One series: its line in x order and a marker per point not shared with another series.
std::string series_group(const ChartSeries& s, std::size_t index, const Layout& l) {
    const SeriesStyle style = series_style(index);
    std::vector<ChartPoint> points = s.points;
    std::stable_sort(points.begin(), points.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    std::string svg = fmt::format("<g class=\"series\" data-name=\"{}\" data-style=\"{} {} {}\">\n", xml_escape(s.name),
                                  style.color, style.marker, style.dash[0] ? style.dash : "solid");
    if (s.connect && points.size() > 1) {
        std::string d;
        for (std::size_t i = 0; i < points.size(); ++i)
            d += fmt::format("{}{:.2f},{:.2f}", i == 0 ? "M" : "L", l.X(points[i].x), l.Y(points[i].y));
        svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", d, style.color,
                           dash_attr(style));
    }
    for (const ChartPoint& p : points)
        if (!l.shared.is_shared(p))
            svg += svg_marker(style, l.X(p.x), l.Y(p.y), 4.5, "<title>" + xml_escape(p.tip) + "</title>") + "\n";
    return svg + "</g>\n";
}

// Each set of series sharing points gets a letter, drawn in its rings and explained in the legend.
std::string shared_markers(const Chart& c, const Layout& l) {
    std::string svg;
    for (const auto& [xy, owners] : l.shared.owners) {
        if (owners.size() < 2) continue;
        const std::string letter = group_letter(l.shared.group_of(owners));
        std::string tip;
        for (std::size_t si : owners)
            for (const ChartPoint& p : c.series[si].points)
                if (p.x == xy.first && p.y == xy.second) tip += (tip.empty() ? "" : "\n\n") + p.tip;
        svg += fmt::format("<g class=\"shared-point\" data-count=\"{}\" data-group=\"{}\">{}<title>{}</title></g>\n",
                           owners.size(), letter, group_ring(l.X(xy.first), l.Y(xy.second), letter), xml_escape(tip));
    }
    return svg;
}

// Everything drawn inside the plot (clipped to it), then the failures on its bottom edge.
std::string plot_area(const Chart& c, const Layout& l) {
    std::string svg = fmt::format(
        "<defs><clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath></defs>\n"
        "<g clip-path=\"url(#plot)\">\n",
        kLeft - 8, kTop - 8, kPlotW + 16, kPlotH + 16);
    svg += guide_lines(c, l);
    for (std::size_t si = 0; si < c.series.size(); ++si) svg += series_group(c.series[si], si, l);
    svg += shared_markers(c, l);
    if (c.marked)
        svg += fmt::format(
            "<circle class=\"marked\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"10\" fill=\"none\" stroke=\"#111\" "
            "stroke-width=\"2.5\"><title>{}</title></circle>\n",
            l.X(c.marked->x), l.Y(c.marked->y), xml_escape(c.marked_label + "\n" + c.marked->tip));
    svg += "</g>\n";
    for (const ChartPoint& p : c.failures) {
        const double x = std::isfinite(p.x) ? l.X(p.x) : kPlotRight - 6, y = kPlotBottom;
        svg += fmt::format("<path class=\"failed\" d=\"M{:.2f},{:.2f}l8,-8m0,8l-8,-8\" stroke=\"#d62728\" stroke-width=\"2\">"
                           "<title>{}</title></path>\n", x - 4, y - 2, xml_escape(p.tip));
    }
    return svg;
}

// What a legend entry shows at its left, centred on cy: the series' line and marker, a
// group's ring, or the mark the plot uses.
std::string legend_sample(const Chart& c, const LegendEntry& e, double cy) {
    const double lx = kLegendX;
    switch (e.sample) {
        case Sample::Series: {
            const SeriesStyle style = series_style(e.index);
            std::string svg;
            if (c.series[e.index].connect)
                svg += fmt::format(
                    "<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" stroke-width=\"2\"{}/>", lx,
                    lx + 20, cy, cy, style.color, dash_attr(style));
            return svg + svg_marker(style, lx + 10, cy, 4.5);
        }
        case Sample::Group: return group_ring(lx + 10, cy, group_letter(e.index));
        case Sample::Marked:
            return fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"7\" fill=\"none\" stroke=\"#111\" stroke-width=\"2.5\"/>",
                               lx + 10, cy);
        case Sample::Identity:
            return fmt::format(
                "<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#888\" stroke-width=\"1.5\" "
                "stroke-dasharray=\"6 3\"/>",
                lx, lx + 20, cy + 6, cy - 6);
        case Sample::Failed:
            return fmt::format("<path d=\"M{:.2f},{:.2f}l8,-8m0,8l-8,-8\" stroke=\"#d62728\" stroke-width=\"2\"/>", lx + 6,
                               cy + 4);
        case Sample::Reference:
        case Sample::Front: {
            const bool front = e.sample == Sample::Front;
            return fmt::format(
                "<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" stroke-width=\"1.5\" "
                "stroke-dasharray=\"{}\"/>",
                lx, lx + 20, cy, cy, front ? "#222" : "#555", front ? "5 3" : "2 4");
        }
    }
    return "";
}

// The legend: a column beside the plot, each entry's text wrapped under the last.
std::string legend(const Chart& c, const Layout& l) {
    std::string svg;
    double ly = kTop;
    for (const LegendEntry& e : l.legend) {
        svg += "<g class=\"legend-entry\">" + legend_sample(c, e, ly + 6);
        svg += text_lines(kLegendX + 26, ly + 10, e.lines, "", "legend-text");
        svg += "</g>\n";
        ly += kLineH * static_cast<double>(e.lines.size()) + 6;
    }
    return svg;
}

}  // namespace

std::string render_svg(const Chart& c) {
    const Layout l = lay_out(c);
    return svg_head(c, l) + y_grid(c.y, l) + x_grid(l) + axis_titles(c, l) + plot_area(c, l) + legend(c, l) + "</svg>\n";
}

}  // namespace memsim
