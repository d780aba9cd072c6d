#include "sim/app/find/search.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace memsim {

namespace {

// The value a fraction t of the way from a to b (geometric on a log axis).
double between(const SearchAxis& axis, double a, double b, double t) {
    if (axis.log) return a * std::pow(b / a, t);
    return a + t * (b - a);
}

double as_run(const SearchAxis& axis, const SearchOptions& options, double value) {
    if (axis.integer) return std::round(value);
    return options.round ? options.round(value) : value;
}

bool narrow(const SearchAxis& axis, const SearchOptions& options, double a, double b) {
    if (axis.integer) return b - a <= 1;
    if (axis.log) return b / a - 1 <= options.tolerance;
    return (b - a) / std::max(std::fabs(a), std::fabs(b)) <= options.tolerance;
}

}  // namespace

SearchResult search_range(const SearchAxis& axis, SearchGoal goal, const SearchOptions& options, const EvaluateRound& evaluate) {
    std::map<double, SearchPoint> points;
    SearchResult result;
    int round = 0;
    auto run = [&](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        std::erase_if(values, [&](double v) { return points.count(v) > 0; });
        if (values.empty()) return false;
        const std::vector<bool> holds = evaluate(values);
        for (std::size_t i = 0; i < values.size(); ++i) points[values[i]] = {values[i], static_cast<bool>(holds.at(i)), round};
        ++round;
        return true;
    };

    const double span = axis.hi - axis.lo + 1;
    std::vector<double> grid;
    if (axis.integer && span <= options.grid) {
        for (double v = axis.lo; v <= axis.hi; ++v) grid.push_back(v);
        result.exhaustive = true;
    } else {
        for (int i = 0; i < options.grid; ++i) {
            const double t = options.grid > 1 ? static_cast<double>(i) / (options.grid - 1) : 0.0;
            grid.push_back(i == 0 ? axis.lo : i == options.grid - 1 ? axis.hi : as_run(axis, options, between(axis, axis.lo, axis.hi, t)));
        }
    }
    run(grid);

    while (true) {
        std::vector<SearchPoint> sorted;
        for (const auto& [value, point] : points) sorted.push_back(point);
        std::vector<std::pair<double, double>> open;
        std::size_t changes = 0;
        for (std::size_t i = 0; i + 1 < sorted.size(); ++i) {
            if (sorted[i].holds == sorted[i + 1].holds) continue;
            ++changes;
            if (!narrow(axis, options, sorted[i].value, sorted[i + 1].value)) open.emplace_back(sorted[i].value, sorted[i + 1].value);
        }
        if (changes >= 2 && axis.integer && !result.exhaustive && span <= static_cast<double>(options.max_exhaustive)) {
            std::vector<double> every;
            for (double v = axis.lo; v <= axis.hi; ++v) every.push_back(v);
            result.exhaustive = true;
            run(every);
            continue;
        }
        if (open.empty()) break;
        std::vector<double> next;
        for (const auto& [a, b] : open)
            for (int k = 1; k <= options.per_round; ++k) {
                const double v = as_run(axis, options, between(axis, a, b, static_cast<double>(k) / (options.per_round + 1)));
                if (v > a && v < b) next.push_back(v);
            }
        if (points.size() + next.size() > options.max_points) {
            result.stopped = true;
            break;
        }
        if (!run(next)) break;  // rounding left nothing between the ends
    }

    for (const auto& [value, point] : points) result.points.push_back(point);
    for (std::size_t i = 0; i + 1 < result.points.size(); ++i)
        if (result.points[i].holds != result.points[i + 1].holds) ++result.changes;
    result.monotone = result.changes <= 1;
    const auto& p = result.points;
    if (goal == SearchGoal::Smallest) {
        for (std::size_t i = 0; i < p.size(); ++i)
            if (p[i].holds) {
                result.answer = p[i].value;
                if (i > 0) result.beyond = p[i - 1].value;
                break;
            }
    } else {
        for (std::size_t i = p.size(); i-- > 0;)
            if (p[i].holds) {
                result.answer = p[i].value;
                if (i + 1 < p.size()) result.beyond = p[i + 1].value;
                break;
            }
    }
    return result;
}

}  // namespace memsim
