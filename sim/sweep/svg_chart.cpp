#include "sim/sweep/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace memsim {

namespace {

constexpr double kWidth = 760, kHeight = 470, kLeft = 80, kRight = 220, kTop = 44, kBottom = 100;
const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

std::string xml_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

// Text cut to `max` characters (UTF-8 aware) with an ellipsis; the full text goes in a <title>.
std::string fitted_text(const std::string& text, std::size_t max) {
    std::size_t chars = 0, cut = text.size();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
        if (chars++ == max - 1) cut = i;
    }
    if (chars <= max) return xml_escape(text);
    return xml_escape(text.substr(0, cut)) + "\u2026<title>" + xml_escape(text) + "</title>";
}

std::string number_label(double v) {
    if (v == 0) return "0";
    return fmt::format("{:g}", std::round(v * 1e6) / 1e6);
}

std::vector<double> round_ticks(double lo, double hi, int count) {
    if (!(hi > lo)) return {lo};
    const double raw = (hi - lo) / count, p = std::pow(10.0, std::floor(std::log10(raw)));
    double step = p;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) {
            step = m * p;
            break;
        }
    std::vector<double> ticks;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
    return ticks;
}

std::vector<double> scaled_ticks(double lo, double hi, int count, double unit_scale) {
    std::vector<double> ticks = round_ticks(lo / unit_scale, hi / unit_scale, count);
    for (double& t : ticks) t *= unit_scale;
    return ticks;
}

struct Scale {
    double lo = 0, hi = 1, from = 0, to = 1;
    bool log = false;
    double operator()(double v) const {
        const double f = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        return from + f * (to - from);
    }
};

Scale x_scale(const Chart& c, double lo, double hi) {
    Scale s{lo, hi, kLeft, kWidth - kRight, c.x.log_scale};
    if (c.x.categorical) {
        s.lo = lo - 0.5;
        s.hi = hi + 0.5;
    } else if (s.log) {
        s.lo = lo / 1.15;
        s.hi = hi * 1.15;
    } else {
        const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::fabs(lo) * 0.1, 1.0);
        s.lo = lo - pad;
        s.hi = hi + pad;
    }
    return s;
}

}  // namespace

std::string render_svg(const Chart& c) {
    double xlo = std::numeric_limits<double>::max(), xhi = std::numeric_limits<double>::lowest(), yhi = 0;
    auto take_x = [&](double x) { xlo = std::min(xlo, x), xhi = std::max(xhi, x); };
    for (const ChartSeries& s : c.series)
        for (const ChartPoint& p : s.points) take_x(p.x), yhi = std::max(yhi, p.y);
    for (const ChartPoint& p : c.failures) take_x(p.x);
    for (const auto& [x, label] : c.x.ticks) take_x(x);
    if (xlo > xhi) xlo = 0, xhi = 1;
    if (yhi <= 0) yhi = 1;
    const Scale X = x_scale(c, xlo, xhi);
    const Scale Y{0, yhi * 1.08, kHeight - kBottom, kTop, false};

    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
        kWidth, kHeight);
    svg += fmt::format("<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
                       (kLeft + kWidth - kRight) / 2, xml_escape(c.title));

    // Ticks at round numbers of the unit the labels show (MiB, ms), not of raw bytes.
    for (double t : scaled_ticks(0, yhi * 1.08, 5, c.y.unit_scale)) {
        svg += fmt::format("<line x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e6e6e6\"/>\n", kLeft,
                           kWidth - kRight, Y(t), Y(t));
        svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, Y(t) + 4,
                           number_label(t / c.y.unit_scale));
    }
    std::vector<std::pair<double, std::string>> xticks = c.x.ticks;
    if (xticks.empty())
        for (double t : scaled_ticks(X.lo, X.hi, 6, c.x.unit_scale)) xticks.emplace_back(t, number_label(t / c.x.unit_scale));
    for (const auto& [t, label] : xticks) {
        const double x = X(t);
        svg += fmt::format("<line x1=\"{0:.2f}\" x2=\"{0:.2f}\" y1=\"{1:.2f}\" y2=\"{2:.2f}\" stroke=\"#e6e6e6\"/>\n", x,
                           kTop, kHeight - kBottom);
        svg += fmt::format("<text transform=\"translate({:.2f},{:.2f}) rotate(-30)\" text-anchor=\"end\">{}</text>\n", x,
                           kHeight - kBottom + 16, fitted_text(label, 18));
    }
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n", kLeft, kTop,
                       kWidth - kRight - kLeft, kHeight - kBottom - kTop);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (kLeft + kWidth - kRight) / 2,
                       kHeight - 10, xml_escape(c.x.label));
    svg += fmt::format("<text transform=\"translate(18,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                       (kTop + kHeight - kBottom) / 2, xml_escape(c.y.label));

    if (c.front.size() > 1) {
        std::string d;
        for (std::size_t i = 0; i < c.front.size(); ++i) {
            if (i == 0) d += fmt::format("M{:.2f},{:.2f}", X(c.front[i].x), Y(c.front[i].y));
            else d += fmt::format("H{:.2f}V{:.2f}", X(c.front[i].x), Y(c.front[i].y));
        }
        svg += fmt::format("<path class=\"pareto-front\" d=\"{}\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" "
                           "stroke-dasharray=\"5 3\"/>\n", d);
    }
    for (std::size_t si = 0; si < c.series.size(); ++si) {
        const ChartSeries& s = c.series[si];
        const char* color = kPalette[si % std::size(kPalette)];
        std::vector<ChartPoint> points = s.points;
        std::stable_sort(points.begin(), points.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
        svg += fmt::format("<g class=\"series\" data-name=\"{}\">\n", xml_escape(s.name));
        if (s.connect && points.size() > 1) {
            std::string d;
            for (std::size_t i = 0; i < points.size(); ++i)
                d += fmt::format("{}{:.2f},{:.2f}", i == 0 ? "M" : "L", X(points[i].x), Y(points[i].y));
            svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", d, color);
        }
        for (const ChartPoint& p : points)
            svg += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"4\" fill=\"{}\"><title>{}</title></circle>\n", X(p.x),
                               Y(p.y), color, xml_escape(p.tip));
        svg += "</g>\n";
        const double ly = kTop + 8 + 18.0 * static_cast<double>(si);
        svg += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", kWidth - kRight + 14,
                           ly, color);
        svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\">{}</text>\n", kWidth - kRight + 32, ly + 10, fitted_text(s.name, 30));
    }
    for (const ChartPoint& p : c.failures) {
        const double x = X(p.x), y = kHeight - kBottom;
        svg += fmt::format("<path class=\"failed\" d=\"M{:.2f},{:.2f}l8,-8m0,8l-8,-8\" stroke=\"#d62728\" stroke-width=\"2\">"
                           "<title>{}</title></path>\n", x - 4, y - 2, xml_escape(p.tip));
    }
    if (!c.failures.empty())
        svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" fill=\"#d62728\">\u00d7 no result (oom, thrash, error)</text>\n",
                           kWidth - kRight + 14, kHeight - kBottom);
    svg += "</svg>\n";
    return svg;
}

}  // namespace memsim
