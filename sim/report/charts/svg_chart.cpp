#include "sim/report/charts/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "sim/report/charts/chart_style.h"

namespace memsim {

namespace {

constexpr double kLeft = 84, kTop = 48, kPlotW = 480, kPlotH = 320, kLegendGap = 22, kLegendW = 270;
constexpr double kLineH = 15, kTickFont = 12;
constexpr std::size_t kLegendChars = 31;  // 31 x 7.7 px (the widest DejaVu Sans glyphs at 12 px) < kLegendW - 26

struct Scale {
    double lo = 0, hi = 1, from = 0, to = 1;
    bool log = false;
    double operator()(double v) const {
        const double f = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        return from + f * (to - from);
    }
};

Scale padded(double lo, double hi, bool log, bool categorical, double from, double to) {
    Scale s{lo, hi, from, to, log};
    if (categorical) {
        s.lo = lo - 0.5, s.hi = hi + 0.5;
    } else if (log) {
        s.lo = lo / 1.15, s.hi = hi * 1.15;
    } else {
        const double pad = hi > lo ? (hi - lo) * 0.06 : std::max(std::fabs(lo) * 0.1, 1e-9);
        s.lo = lo - pad, s.hi = hi + pad;
    }
    return s;
}

std::string text_lines(double x, double y, const std::vector<std::string>& lines, const std::string& attrs, const char* cls) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += fmt::format("<text class=\"{}\" x=\"{:.2f}\" y=\"{:.2f}\"{}>{}</text>\n", cls, x, y + kLineH * static_cast<double>(i), attrs,
                           xml_escape(lines[i]));
    return out;
}

// "A", "B", ... "Z", "AA", ...
std::string group_letter(std::size_t i) {
    std::string out(1, static_cast<char>('A' + i % 26));
    return i >= 26 ? group_letter(i / 26 - 1) + out : out;
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// ", not from 0: 28.6 to 29 (a 1.4% span)" for a linear axis whose data span less than a
// tenth of its top; "" otherwise.
std::string narrow_note(double lo, double hi, bool log, bool categorical, double unit_scale) {
    if (log || categorical || !(lo > 0) || !(hi > lo) || (hi - lo) / hi >= 0.1) return "";
    return fmt::format(", not from 0: {} to {} (a {:.1f}% span)", number_label(lo / unit_scale), number_label(hi / unit_scale),
                       (hi - lo) / hi * 100);
}


}  // namespace

std::string render_svg(const Chart& c) {
    double xlo = std::numeric_limits<double>::max(), xhi = std::numeric_limits<double>::lowest();
    double ylo = std::numeric_limits<double>::max(), yhi = std::numeric_limits<double>::lowest();
    auto take_x = [&](double x) {
        if (std::isfinite(x)) xlo = std::min(xlo, x), xhi = std::max(xhi, x);
    };
    auto take_y = [&](double y) { ylo = std::min(ylo, y), yhi = std::max(yhi, y); };
    for (const ChartSeries& s : c.series)
        for (const ChartPoint& p : s.points) take_x(p.x), take_y(p.y);
    for (const ChartPoint& p : c.failures) take_x(p.x);
    for (const auto& [x, label] : c.x.ticks) take_x(x);
    if (c.reference_y) take_y(*c.reference_y);
    if (c.marked) take_x(c.marked->x), take_y(c.marked->y);
    if (xlo > xhi) xlo = 0, xhi = 1;
    if (ylo > yhi) ylo = 0, yhi = 1;
    const double data_xlo = xlo, data_xhi = xhi, data_ylo = ylo, data_yhi = yhi;
    if (c.x.include_zero && !c.x.categorical) xlo = std::min(xlo, 0.0);
    if (c.y.include_zero) ylo = std::min(ylo, 0.0);
    const bool ylog = ylo > 0 && (c.y.log_scale || (c.y_auto_log && yhi / ylo >= 20.0));
    const double plot_bottom = kTop + kPlotH, plot_right = kLeft + kPlotW;
    const Scale X = padded(xlo, xhi, c.x.log_scale && xlo > 0, c.x.categorical, kLeft, plot_right);
    const Scale Y = padded(ylo, yhi, ylog, false, plot_bottom, kTop);

    // x tick labels: horizontal and wrapped to the room between neighbours, or upright
    // when there is too little room; never cut.
    const auto round_ticks = [&] {
        std::vector<std::pair<double, std::string>> ticks;
        const std::vector<double> at = X.log ? log_ticks(X.lo, X.hi) : linear_ticks(X.lo / c.x.unit_scale, X.hi / c.x.unit_scale, 6);
        for (double t : at) {
            const double v = X.log ? t : t * c.x.unit_scale;
            ticks.emplace_back(v, number_label(v / c.x.unit_scale));
        }
        return ticks;
    };
    std::vector<std::pair<double, std::string>> xticks = c.x.ticks;
    if (xticks.empty()) xticks = round_ticks();
    else if (!c.x.categorical) {
        // Ticks at the values of a numeric axis: kept while each label fits beside its
        // neighbours, else round numbers (a search crowds its points near the answer).
        std::vector<double> at;
        std::size_t widest = 0;
        for (const auto& [x, label] : xticks) at.push_back(X(x)), widest = std::max(widest, utf8_length(label));
        std::sort(at.begin(), at.end());
        double closest = kPlotW;
        for (std::size_t i = 1; i < at.size(); ++i) closest = std::min(closest, at[i] - at[i - 1]);
        if (closest < static_cast<double>(widest) * kTickFont * 0.64 + 6) xticks = round_ticks();
    }
    double gap = kPlotW;
    for (std::size_t i = 1; i < xticks.size(); ++i) gap = std::min(gap, std::fabs(X(xticks[i].first) - X(xticks[i - 1].first)));
    const auto chars = static_cast<std::size_t>(std::max(0.0, gap / (kTickFont * 0.64) - 1));
    // Upright when a label would have to break inside a word (words end at spaces and
    // after ',', '=', '/' and '_', where wrap_text breaks).
    bool turned = chars < 7;
    for (const auto& [x, label] : xticks) {
        std::size_t word = 0;
        for (char ch : label + " ") {
            if (!is_continuation_byte(ch) && ch != ' ') ++word;
            if (ch == ' ' || ch == ',' || ch == '=' || ch == '/' || ch == '_') {
                turned = turned || word > chars;
                word = 0;
            }
        }
    }
    std::size_t tick_lines = 1;
    double turned_depth = 0;
    for (const auto& [x, label] : xticks) {
        if (turned) turned_depth = std::max(turned_depth, text_width_px(label) + 8);
        else tick_lines = std::max(tick_lines, wrap_text(label, chars).size());
    }
    const double ticks_depth = turned ? turned_depth : kLineH * static_cast<double>(tick_lines);

    // Coordinates several series share: one marker, labelled with all their names.
    std::map<std::pair<double, double>, std::vector<std::size_t>> shared;
    if (c.merge_identical)
        for (std::size_t si = 0; si < c.series.size(); ++si)
            for (const ChartPoint& p : c.series[si].points) {
                auto& owners = shared[{p.x, p.y}];
                if (owners.empty() || owners.back() != si) owners.push_back(si);
            }
    std::vector<std::vector<std::size_t>> groups;  // distinct sets of series sharing a point, first seen first
    for (const auto& [xy, owners] : shared)
        if (owners.size() > 1 && std::find(groups.begin(), groups.end(), owners) == groups.end()) groups.push_back(owners);

    // The legend column: series, then the reference line, the front and failures.
    struct Entry {
        std::vector<std::string> lines;
        std::string sample;  // SVG drawn at the entry's left, given its top y
    };
    std::vector<Entry> entries;
    const double lx = plot_right + kLegendGap;
    for (std::size_t si = 0; si < c.series.size(); ++si) entries.push_back({wrap_text(c.series[si].name, kLegendChars), ""});
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::string names;
        for (std::size_t si : groups[g]) names += (names.empty() ? "" : "; ") + c.series[si].name;
        entries.push_back({wrap_text("shared by " + names, kLegendChars), "group" + group_letter(g)});
    }
    if (c.marked) entries.push_back({wrap_text(c.marked_label, kLegendChars), "marked"});
    if (c.reference_y) entries.push_back({wrap_text(c.reference_label, kLegendChars), "reference"});
    if (!c.identity_label.empty()) entries.push_back({wrap_text(c.identity_label, kLegendChars), "identity"});
    if (c.front.size() > 1) entries.push_back({{"Pareto front"}, "front"});
    if (!c.failures.empty()) entries.push_back({wrap_text("no result (any status but ok)", kLegendChars), "failed"});
    double legend_h = 0;
    for (const Entry& e : entries) legend_h += kLineH * static_cast<double>(e.lines.size()) + 6;

    const double width = lx + kLegendW;
    const double height = std::max(plot_bottom + 12 + ticks_depth + 34, kTop + legend_h + 16);
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" viewBox=\"0 0 {0} {1:.0f}\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
        width, std::ceil(height));
    const std::vector<std::string> title = wrap_text(c.title, 84);
    for (std::size_t i = 0; i < title.size() && i < 2; ++i)
        svg += fmt::format("<text class=\"title\" x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\" font-size=\"{}\" font-weight=\"bold\">{}</text>\n",
                           width / 2, title.size() == 1 ? 24 : 17 + 17 * static_cast<int>(i), title.size() == 1 ? 15 : 13,
                           xml_escape(title.size() > 2 && i == 1 ? c.title.substr(title[0].size()) : title[i]));

    // y grid and labels, in the unit the label shows (MiB, ms).
    const std::vector<double> yticks = ylog ? log_ticks(Y.lo, Y.hi) : [&] {
        std::vector<double> t = linear_ticks(Y.lo / c.y.unit_scale, Y.hi / c.y.unit_scale, 5);
        for (double& v : t) v *= c.y.unit_scale;
        return t;
    }();
    for (double t : yticks) {
        svg += fmt::format("<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e6e6e6\"/>\n", kLeft, plot_right, Y(t), Y(t));
        svg += fmt::format("<text class=\"y-tick\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, Y(t) + 4,
                           number_label(t / c.y.unit_scale));
    }
    for (const auto& [t, label] : xticks) {
        const double x = X(t);
        svg += fmt::format("<line x1=\"{0:.2f}\" x2=\"{0:.2f}\" y1=\"{1:.2f}\" y2=\"{2:.2f}\" stroke=\"#e6e6e6\"/>\n", x, kTop, plot_bottom);
        if (turned)
            // Upright (turned a quarter): neighbours' boxes stay apart however long the labels are.
            svg += fmt::format("<text class=\"tick-label\" transform=\"translate({:.2f},{:.2f}) rotate(-90)\" text-anchor=\"end\">{}</text>\n",
                               x + 4, plot_bottom + 8, xml_escape(label));
        else
            svg += text_lines(x, plot_bottom + 16, wrap_text(label, chars), " text-anchor=\"middle\"", "tick-label");
    }
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n", kLeft, kTop, kPlotW, kPlotH);
    svg += fmt::format("<text class=\"axis-title\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n", kLeft + kPlotW / 2,
                       plot_bottom + 12 + ticks_depth + 20,
                       xml_escape(c.x.label + (X.log ? " (log scale)" : "") +
                                  (c.x.include_zero ? "" : narrow_note(data_xlo, data_xhi, X.log, c.x.categorical, c.x.unit_scale))));
    svg += fmt::format("<text class=\"axis-title\" transform=\"translate(18,{:.2f}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                       kTop + kPlotH / 2,
                       xml_escape(c.y.label + (ylog ? " (log scale)" : "") +
                                  (c.y.include_zero ? "" : narrow_note(data_ylo, data_yhi, ylog, false, c.y.unit_scale))));

    svg += fmt::format("<defs><clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath></defs>\n"
                       "<g clip-path=\"url(#plot)\">\n", kLeft - 8, kTop - 8, kPlotW + 16, kPlotH + 16);
    if (c.reference_y)
        svg += fmt::format("<line class=\"reference\" x1=\"{}\" x2=\"{}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#555\" stroke-width=\"1.5\" "
                           "stroke-dasharray=\"2 4\"/>\n", kLeft, plot_right, Y(*c.reference_y), Y(*c.reference_y));
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
    auto is_shared = [&](const ChartPoint& p) {
        auto it = shared.find({p.x, p.y});
        return it != shared.end() && it->second.size() > 1;
    };
    for (std::size_t si = 0; si < c.series.size(); ++si) {
        const ChartSeries& s = c.series[si];
        const SeriesStyle style = series_style(si);
        std::vector<ChartPoint> points = s.points;
        std::stable_sort(points.begin(), points.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
        svg += fmt::format("<g class=\"series\" data-name=\"{}\" data-style=\"{} {} {}\">\n", xml_escape(s.name), style.color,
                           style.marker, style.dash[0] ? style.dash : "solid");
        if (s.connect && points.size() > 1) {
            std::string d;
            for (std::size_t i = 0; i < points.size(); ++i)
                d += fmt::format("{}{:.2f},{:.2f}", i == 0 ? "M" : "L", X(points[i].x), Y(points[i].y));
            svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", d, style.color,
                               style.dash[0] ? fmt::format(" stroke-dasharray=\"{}\"", style.dash) : "");
        }
        for (const ChartPoint& p : points)
            if (!is_shared(p)) svg += svg_marker(style, X(p.x), Y(p.y), 4.5, "<title>" + xml_escape(p.tip) + "</title>") + "\n";
        svg += "</g>\n";
    }
    // Each set of series sharing points gets a letter, drawn in its rings and explained in the legend.
    for (const auto& [xy, owners] : shared) {
        if (owners.size() < 2) continue;
        const std::size_t letter = static_cast<std::size_t>(std::find(groups.begin(), groups.end(), owners) - groups.begin());
        const double x = X(xy.first), y = Y(xy.second);
        std::string tip;
        for (std::size_t si : owners)
            for (const ChartPoint& p : c.series[si].points)
                if (p.x == xy.first && p.y == xy.second) tip += (tip.empty() ? "" : "\n\n") + p.tip;
        svg += fmt::format("<g class=\"shared-point\" data-count=\"{}\" data-group=\"{}\"><circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"7\" "
                           "fill=\"#fff\" stroke=\"#222\" stroke-width=\"2\"/><text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" "
                           "font-size=\"9\" font-weight=\"bold\">{}</text><title>{}</title></g>\n",
                           owners.size(), group_letter(letter), x, y, x, y + 3, group_letter(letter), xml_escape(tip));
    }
    if (c.marked)
        svg += fmt::format("<circle class=\"marked\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"10\" fill=\"none\" stroke=\"#111\" "
                           "stroke-width=\"2.5\"><title>{}</title></circle>\n",
                           X(c.marked->x), Y(c.marked->y), xml_escape(c.marked_label + "\n" + c.marked->tip));
    svg += "</g>\n";
    for (const ChartPoint& p : c.failures) {
        const double x = std::isfinite(p.x) ? X(p.x) : plot_right - 6, y = plot_bottom;
        svg += fmt::format("<path class=\"failed\" d=\"M{:.2f},{:.2f}l8,-8m0,8l-8,-8\" stroke=\"#d62728\" stroke-width=\"2\">"
                           "<title>{}</title></path>\n", x - 4, y - 2, xml_escape(p.tip));
    }

    double ly = kTop;
    std::size_t si = 0;
    for (const Entry& e : entries) {
        svg += "<g class=\"legend-entry\">";
        const double cy = ly + 6;
        if (e.sample.empty()) {
            const SeriesStyle style = series_style(si);
            if (c.series[si].connect)
                svg += fmt::format("<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" stroke-width=\"2\"{}/>", lx,
                                   lx + 20, cy, cy, style.color, style.dash[0] ? fmt::format(" stroke-dasharray=\"{}\"", style.dash) : "");
            svg += svg_marker(style, lx + 10, cy, 4.5);
            ++si;
        } else if (e.sample.rfind("group", 0) == 0) {
            svg += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"7\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"2\"/>"
                               "<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" font-size=\"9\" font-weight=\"bold\">{}</text>",
                               lx + 10, cy, lx + 10, cy + 3, e.sample.substr(5));
        } else if (e.sample == "marked") {
            svg += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"7\" fill=\"none\" stroke=\"#111\" stroke-width=\"2.5\"/>", lx + 10, cy);
        } else if (e.sample == "identity") {
            svg += fmt::format("<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#888\" stroke-width=\"1.5\" "
                               "stroke-dasharray=\"6 3\"/>", lx, lx + 20, cy + 6, cy - 6);
        } else if (e.sample == "failed") {
            svg += fmt::format("<path d=\"M{:.2f},{:.2f}l8,-8m0,8l-8,-8\" stroke=\"#d62728\" stroke-width=\"2\"/>", lx + 6, cy + 4);
        } else {
            const bool front = e.sample == "front";
            svg += fmt::format("<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" stroke-width=\"1.5\" "
                               "stroke-dasharray=\"{}\"/>", lx, lx + 20, cy, cy, front ? "#222" : "#555", front ? "5 3" : "2 4");
        }
        svg += text_lines(lx + 26, ly + 10, e.lines, "", "legend-text");
        svg += "</g>\n";
        ly += kLineH * static_cast<double>(e.lines.size()) + 6;
    }
    svg += "</svg>\n";
    return svg;
}

}  // namespace memsim
