// The search behind `memsim find`, apart from running anything: where over a range of one
// parameter a yes/no condition holds. It evaluates a coarse grid first; where the answer
// changes between neighbours it narrows the change down (bisection, or several points a
// round when the caller runs points in parallel) until neighbours are 1 apart (integer
// parameters) or within a relative tolerance (continuous ones). A grid whose answer
// changes more than once is a response that is not monotone: integer ranges are then
// evaluated exhaustively (when not too long), continuous ones have every change narrowed
// down, and the result says so. The caller's `evaluate` runs one round of points.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace memsim {

struct SearchAxis {
    double lo = 0, hi = 0;  // the range, lo < hi
    bool integer = false;   // values step by 1
    bool log = false;       // grid and midpoints spaced geometrically (lo > 0)
};

// What is sought: the smallest value where the condition holds (--until, --minimize)
// or the largest (--maximize).
enum class SearchGoal { Smallest, Largest };

struct SearchOptions {
    int grid = 9;                         // coarse grid points, ends included
    double tolerance = 0.01;              // continuous: stop when hi/lo - 1 (log) or (hi - lo)/hi is below it
    int per_round = 1;                    // points evaluated per change per round (1 = bisection)
    std::size_t max_exhaustive = 256;     // integer ranges up to this long are evaluated whole when not monotone
    std::size_t max_points = 400;         // evaluations in all, then stop and say so
    std::function<double(double)> round;  // continuous values as they will be run (e.g. to 6 significant digits)
};

struct SearchPoint {
    double value = 0;
    bool holds = false;
    int round = 0;  // 0 = the grid
};

struct SearchResult {
    std::vector<SearchPoint> points;     // every point evaluated, by value
    std::size_t changes = 0;             // neighbours (by value) whose answers differ
    bool monotone = true;                // changes <= 1
    bool exhaustive = false;             // every integer of the range was evaluated
    bool stopped = false;                // max_points reached before the changes were narrowed down
    std::optional<double> answer;        // the smallest / largest evaluated value where it holds
    std::optional<double> beyond;        // the evaluated value next to the answer, on the side where it fails
};

using EvaluateRound = std::function<std::vector<bool>(const std::vector<double>&)>;

SearchResult search_range(const SearchAxis& axis, SearchGoal goal, const SearchOptions& options, const EvaluateRound& evaluate);

}  // namespace memsim
