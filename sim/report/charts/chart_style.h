// The pieces of a sweep chart that are not layout: how each series looks (colour,
// marker and dash, so that more than ten series stay distinct), how long text is
// wrapped instead of cut, and where the ticks of linear and log axes go.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace memsim {

struct SeriesStyle {
    const char* color;
    const char* marker;  // circle | square | triangle | diamond | triangle_down | plus | hexagon (never a cross: failures)
    const char* dash;    // stroke-dasharray, "" for a solid line
};

// Series i: colour i mod 10, marker i mod 7, dash (i / 10) mod 4: the first 70 series
// differ in colour or marker, and lines of the same colour differ in dash.
SeriesStyle series_style(std::size_t index);

// An SVG marker of `style` centred at (x, y), radius about r.
std::string svg_marker(const SeriesStyle& style, double x, double y, double r, const std::string& inner = "");

// Splits `text` into lines of at most `max_chars` characters (UTF-8 aware), breaking
// after spaces, commas, '=', '/' or '_' when it can and inside a word only when it must.
// Nothing is dropped: joining the lines gives back the text (but for the spaces at breaks).
std::vector<std::string> wrap_text(const std::string& text, std::size_t max_chars);
std::size_t utf8_length(const std::string& text);

// A conservative width of `text` in px at `font_px` sans-serif (DejaVu Sans averages under 0.64 em).
double text_width_px(const std::string& text, double font_px = 12);

// Round-number ticks between lo and hi (about `count` of them).
std::vector<double> linear_ticks(double lo, double hi, int count);
// 1, 2, 5 x 10^k ticks between lo and hi (> 0); only powers of ten when they are enough.
std::vector<double> log_ticks(double lo, double hi);

std::string xml_escape(const std::string& text);
// "0", "12.5", "1e+06": at most six significant digits, no trailing zeros.
std::string number_label(double v);

}  // namespace memsim
