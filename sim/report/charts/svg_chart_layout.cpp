#include "sim/report/charts/svg_chart_layout.h"

#include <algorithm>
#include <limits>

#include "sim/report/charts/chart_style.h"

namespace memsim::chart_layout {

namespace {

// The extent of the series, the failures' x, the given x ticks, the reference line and
// the marked point; 0..1 on an axis with nothing.
Range data_range(const Chart& c) {
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
    return {xlo, xhi, ylo, yhi};
}

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

std::vector<std::pair<double, std::string>> round_ticks(const Scale& X, double unit_scale) {
    std::vector<std::pair<double, std::string>> ticks;
    const std::vector<double> at = X.log ? log_ticks(X.lo, X.hi) : linear_ticks(X.lo / unit_scale, X.hi / unit_scale, 6);
    for (double t : at) {
        const double v = X.log ? t : t * unit_scale;
        ticks.emplace_back(v, number_label(v / unit_scale));
    }
    return ticks;
}

// Whether ticks at the values of a numeric axis crowd: some label is wider than the
// room beside its neighbours (a search crowds its points near the answer).
bool crowded(const std::vector<std::pair<double, std::string>>& ticks, const Scale& X) {
    std::vector<double> at;
    std::size_t widest = 0;
    for (const auto& [x, label] : ticks) at.push_back(X(x)), widest = std::max(widest, utf8_length(label));
    std::sort(at.begin(), at.end());
    double closest = kPlotW;
    for (std::size_t i = 1; i < at.size(); ++i) closest = std::min(closest, at[i] - at[i - 1]);
    return closest < static_cast<double>(widest) * kTickFont * 0.64 + 6;
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Whether a label has a word longer than `chars` (words end at spaces and after ',',
// '=', '/' and '_', where wrap_text breaks).
bool breaks_inside_word(const std::vector<std::pair<double, std::string>>& ticks, std::size_t chars) {
    bool inside = false;
    for (const auto& [x, label] : ticks) {
        std::size_t word = 0;
        for (char ch : label + " ") {
            if (!is_continuation_byte(ch) && ch != ' ') ++word;
            if (ch == ' ' || ch == ',' || ch == '=' || ch == '/' || ch == '_') {
                inside = inside || word > chars;
                word = 0;
            }
        }
    }
    return inside;
}

// x tick labels: horizontal and wrapped to the room between neighbours, or upright when
// there is too little room or a label would have to break inside a word; never cut.
XTicks x_ticks(const ChartAxis& axis, const Scale& X) {
    XTicks t;
    t.at = axis.ticks;
    if (t.at.empty() || (!axis.categorical && crowded(t.at, X))) t.at = round_ticks(X, axis.unit_scale);
    double gap = kPlotW;
    for (std::size_t i = 1; i < t.at.size(); ++i) gap = std::min(gap, std::fabs(X(t.at[i].first) - X(t.at[i - 1].first)));
    t.chars = static_cast<std::size_t>(std::max(0.0, gap / (kTickFont * 0.64) - 1));
    t.turned = t.chars < 7 || breaks_inside_word(t.at, t.chars);
    std::size_t lines = 1;
    for (const auto& [x, label] : t.at) {
        if (t.turned) t.depth = std::max(t.depth, text_width_px(label) + 8);
        else lines = std::max(lines, wrap_text(label, t.chars).size());
    }
    if (!t.turned) t.depth = kLineH * static_cast<double>(lines);
    return t;
}

SharedPoints shared_points(const Chart& c) {
    SharedPoints shared;
    if (c.merge_identical)
        for (std::size_t si = 0; si < c.series.size(); ++si)
            for (const ChartPoint& p : c.series[si].points) {
                auto& owners = shared.owners[{p.x, p.y}];
                if (owners.empty() || owners.back() != si) owners.push_back(si);
            }
    for (const auto& [xy, owners] : shared.owners)
        if (owners.size() > 1 && std::find(shared.groups.begin(), shared.groups.end(), owners) == shared.groups.end())
            shared.groups.push_back(owners);
    return shared;
}

std::vector<LegendEntry> legend_entries(const Chart& c, const SharedPoints& shared) {
    std::vector<LegendEntry> entries;
    const auto wrapped = [](const std::string& text) { return wrap_text(text, kLegendChars); };
    for (std::size_t si = 0; si < c.series.size(); ++si) entries.push_back({wrapped(c.series[si].name), Sample::Series, si});
    for (std::size_t g = 0; g < shared.groups.size(); ++g) {
        std::string names;
        for (std::size_t si : shared.groups[g]) names += (names.empty() ? "" : "; ") + c.series[si].name;
        entries.push_back({wrapped("shared by " + names), Sample::Group, g});
    }
    if (c.marked) entries.push_back({wrapped(c.marked_label), Sample::Marked});
    if (c.reference_y) entries.push_back({wrapped(c.reference_label), Sample::Reference});
    if (!c.identity_label.empty()) entries.push_back({wrapped(c.identity_label), Sample::Identity});
    if (c.front.size() > 1) entries.push_back({{"Pareto front"}, Sample::Front});
    if (!c.failures.empty()) entries.push_back({wrapped("no result (any status but ok)"), Sample::Failed});
    return entries;
}

}  // namespace

bool SharedPoints::is_shared(const ChartPoint& p) const {
    const auto it = owners.find({p.x, p.y});
    return it != owners.end() && it->second.size() > 1;
}

std::size_t SharedPoints::group_of(const std::vector<std::size_t>& series) const {
    return static_cast<std::size_t>(std::find(groups.begin(), groups.end(), series) - groups.begin());
}

std::string group_letter(std::size_t i) {
    std::string out(1, static_cast<char>('A' + i % 26));
    return i >= 26 ? group_letter(i / 26 - 1) + out : out;
}

Layout lay_out(const Chart& c) {
    Layout l;
    l.data = data_range(c);
    Range r = l.data;
    if (c.x.include_zero && !c.x.categorical) r.xlo = std::min(r.xlo, 0.0);
    if (c.y.include_zero) r.ylo = std::min(r.ylo, 0.0);
    l.ylog = r.ylo > 0 && (c.y.log_scale || (c.y_auto_log && r.yhi / r.ylo >= 20.0));
    // Categories are evenly spaced (a log scale would put the first half a step before 0).
    l.X = padded(r.xlo, r.xhi, c.x.log_scale && r.xlo > 0 && !c.x.categorical, c.x.categorical, kLeft, kPlotRight);
    l.Y = padded(r.ylo, r.yhi, l.ylog, false, kPlotBottom, kTop);
    l.xticks = x_ticks(c.x, l.X);
    l.shared = shared_points(c);
    l.legend = legend_entries(c, l.shared);
    double legend_h = 0;
    for (const LegendEntry& e : l.legend) legend_h += kLineH * static_cast<double>(e.lines.size()) + 6;
    l.width = kLegendX + kLegendW;
    l.height = std::max(kPlotBottom + 12 + l.xticks.depth + 34, kTop + legend_h + 16);
    return l;
}

}  // namespace memsim::chart_layout
