#include "sim/report/charts/chart_style.h"

#include <cmath>

#include <fmt/format.h>

namespace memsim {

namespace {

const char* const kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                               "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#79706e"};
// No cross: a cross is the mark of a point without a result (svg_chart.cpp), so no series may look like one.
const char* const kMarkers[] = {"circle", "square", "triangle", "diamond", "triangle_down", "plus", "hexagon"};
const char* const kDashes[] = {"", "7 3", "2 3", "8 3 2 3"};

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

SeriesStyle series_style(std::size_t i) {
    return {kColors[i % std::size(kColors)], kMarkers[i % std::size(kMarkers)], kDashes[(i / std::size(kColors)) % std::size(kDashes)]};
}

std::string svg_marker(const SeriesStyle& s, double x, double y, double r, const std::string& inner) {
    const std::string m = s.marker;
    std::string shape;
    if (m == "circle") {
        shape = fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{:.2f}\" fill=\"{}\"", x, y, r, s.color);
    } else if (m == "square") {
        const double h = r * 0.9;
        shape = fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\"", x - h, y - h, 2 * h, 2 * h, s.color);
    } else if (m == "triangle" || m == "triangle_down") {
        const double k = m == "triangle" ? 1 : -1;
        shape = fmt::format("<path d=\"M{:.2f},{:.2f}L{:.2f},{:.2f}L{:.2f},{:.2f}Z\" fill=\"{}\"", x, y - k * r * 1.15, x + r * 1.1,
                            y + k * r * 0.8, x - r * 1.1, y + k * r * 0.8, s.color);
    } else if (m == "diamond") {
        shape = fmt::format("<path d=\"M{:.2f},{:.2f}L{:.2f},{:.2f}L{:.2f},{:.2f}L{:.2f},{:.2f}Z\" fill=\"{}\"", x, y - r * 1.2, x + r,
                            y, x, y + r * 1.2, x - r, y, s.color);
    } else if (m == "plus") {
        shape = fmt::format("<path d=\"M{:.2f},{:.2f}h{:.2f}M{:.2f},{:.2f}v{:.2f}\" stroke=\"{}\" stroke-width=\"2.5\" fill=\"none\"",
                            x - r * 1.2, y, 2.4 * r, x, y - r * 1.2, 2.4 * r, s.color);
    } else {  // hexagon
        std::string d;
        for (int k = 0; k < 6; ++k) {
            const double a = (60.0 * k + 30.0) * 3.14159265358979323846 / 180.0;
            d += fmt::format("{}{:.2f},{:.2f}", k == 0 ? "M" : "L", x + r * 1.1 * std::cos(a), y + r * 1.1 * std::sin(a));
        }
        shape = fmt::format("<path d=\"{}Z\" fill=\"{}\"", d, s.color);
    }
    shape += fmt::format(" class=\"marker\" data-marker=\"{}\"", s.marker);
    return inner.empty() ? shape + "/>" : shape + ">" + inner + "</" + shape.substr(1, shape.find(' ') - 1) + ">";
}

std::size_t utf8_length(const std::string& text) {
    std::size_t n = 0;
    for (char c : text) n += is_continuation(c) ? 0 : 1;
    return n;
}

std::vector<std::string> wrap_text(const std::string& text, std::size_t max_chars) {
    max_chars = std::max<std::size_t>(max_chars, 4);
    std::vector<std::string> lines;
    std::string rest = text;
    while (utf8_length(rest) > max_chars) {
        // Byte offset just past `max_chars` characters; the last break point within them.
        // Spaces and commas are the preferred breaks; '=', '/' and '_' only when a line has neither.
        std::size_t chars = 0, end = 0, brk = std::string::npos, weak = std::string::npos;
        for (std::size_t i = 0; i < rest.size(); ++i) {
            if (is_continuation(rest[i])) continue;
            if (chars == max_chars) {
                end = i;
                break;
            }
            ++chars;
            if (i > 0 && (rest[i] == ' ' || rest[i - 1] == ',')) brk = i;
            if (i > 0 && (rest[i - 1] == '=' || rest[i - 1] == '/' || rest[i - 1] == '_')) weak = i;
        }
        const std::size_t cut = brk != std::string::npos ? brk : weak != std::string::npos ? weak : end;
        std::string line = rest.substr(0, cut);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        lines.push_back(line);
        rest = rest.substr(cut);
        while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    }
    if (!rest.empty() || lines.empty()) lines.push_back(rest);
    return lines;
}

double text_width_px(const std::string& text, double font_px) { return static_cast<double>(utf8_length(text)) * font_px * 0.64; }

std::vector<double> linear_ticks(double lo, double hi, int count) {
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

std::vector<double> log_ticks(double lo, double hi) {
    std::vector<double> decades, all;
    for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, e);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
            all.push_back(v);
            if (m == 1.0) decades.push_back(v);
        }
    return decades.size() >= 3 || all.size() > 12 ? decades : all;
}

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

std::string number_label(double v) {
    if (v == 0) return "0";
    return fmt::format("{:g}", std::round(v * 1e6) / 1e6);
}

}  // namespace memsim
