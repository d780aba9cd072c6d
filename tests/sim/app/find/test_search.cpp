// The search of memsim find on responses known in advance: monotone ones give the
// threshold to the step or tolerance; responses that change more than once are
// detected, searched exhaustively (integers) or at every change (continuous), and never
// give a threshold the evaluated points contradict.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/app/find/search.h"

using namespace memsim;

namespace {

// Runs the search on a predicate, counting evaluations.
SearchResult search_on(const SearchAxis& axis, SearchGoal goal, const std::function<bool(double)>& holds,
                       std::size_t& evaluated, int per_round = 1) {
    SearchOptions options;
    options.per_round = per_round;
    return search_range(axis, goal, options, [&](const std::vector<double>& values) {
        std::vector<bool> out;
        for (double v : values) out.push_back(holds(v));
        evaluated += values.size();
        return out;
    });
}

// Every evaluated point agrees with the predicate, and the points are sorted and distinct.
void check_points(const SearchResult& r, const std::function<bool(double)>& holds) {
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        CHECK(r.points[i].holds == holds(r.points[i].value));
        if (i > 0) CHECK(r.points[i - 1].value < r.points[i].value);
    }
}

}  // namespace

TEST_CASE("find search: the largest integer where a monotone condition holds, by bisection") {
    const auto holds = [](double b) { return b <= 23; };  // e.g. peak <= budget up to batch 23
    std::size_t evaluated = 0;
    const SearchResult r = search_on({1, 64, true, true}, SearchGoal::Largest, holds, evaluated);
    check_points(r, holds);
    REQUIRE(r.answer);
    CHECK(*r.answer == 23);
    CHECK(*r.beyond == 24);
    CHECK(r.monotone);
    CHECK(r.changes == 1);
    CHECK_FALSE(r.exhaustive);
    // 9 grid points (1 2 3 5 8 13 23 38 64 on the log grid) already hold 23; its neighbour 24 is one bisection step or few.
    CHECK(evaluated < 20);
    CHECK(evaluated == r.points.size());
}

TEST_CASE("find search: a continuous threshold within the tolerance, with several points a round") {
    const double threshold = 123.4e6;  // e.g. the disk bandwidth where overhead reaches 1.10
    const auto holds = [&](double bw) { return bw >= threshold; };
    for (int per_round : {1, 2, 3}) {
        std::size_t evaluated = 0;
        const SearchResult r = search_on({10e6, 10e9, false, true}, SearchGoal::Smallest, holds, evaluated, per_round);
        check_points(r, holds);
        REQUIRE(r.answer);
        REQUIRE(r.beyond);
        CHECK(*r.answer >= threshold);
        CHECK(*r.beyond < threshold);
        CHECK(*r.answer / *r.beyond - 1 <= 0.01);
        CHECK(r.monotone);
    }
}

TEST_CASE("find search: a condition that holds everywhere or nowhere has no change to narrow") {
    std::size_t evaluated = 0;
    SearchResult r = search_on({1, 100, true, true}, SearchGoal::Largest, [](double) { return true; }, evaluated);
    CHECK(*r.answer == 100);
    CHECK_FALSE(r.beyond);
    CHECK(evaluated == 9);
    r = search_on({1, 100, true, true}, SearchGoal::Smallest, [](double) { return false; }, evaluated);
    CHECK_FALSE(r.answer);
    CHECK(r.monotone);
}

TEST_CASE("find search: an integer response that is not monotone is searched exhaustively") {
    // Holds up to 10 and again from 30 to 40. The grid (1 2 3 5 8 13 23 38 64) sees
    // T T T T T F F T F: bisecting its first change alone would answer 10 for the largest.
    const auto holds = [](double b) { return b <= 10 || (b >= 30 && b <= 40); };
    std::size_t evaluated = 0;
    const SearchResult r = search_on({1, 64, true, true}, SearchGoal::Largest, holds, evaluated);
    check_points(r, holds);
    CHECK_FALSE(r.monotone);
    CHECK(r.exhaustive);
    CHECK(r.changes == 3);
    CHECK(r.points.size() == 64);
    CHECK(evaluated == 64);
    CHECK(*r.answer == 40);
    CHECK(*r.beyond == 41);
}

TEST_CASE("find search: a continuous response that is not monotone has every change narrowed down") {
    // Holds on [2, 3] and [7, 8]; the linear grid 1, 2.125, 3.25, ..., 10 sees four changes.
    const auto holds = [](double v) { return (v >= 2 && v <= 3) || (v >= 7 && v <= 8); };
    std::size_t evaluated = 0;
    const SearchResult smallest = search_on({1, 10, false, false}, SearchGoal::Smallest, holds, evaluated);
    check_points(smallest, holds);
    CHECK_FALSE(smallest.monotone);
    CHECK(smallest.changes == 4);
    CHECK(*smallest.answer >= 2);
    CHECK(*smallest.answer <= 2 * 1.01);
    const SearchResult largest = search_on({1, 10, false, false}, SearchGoal::Largest, holds, evaluated);
    CHECK(*largest.answer <= 8);
    CHECK(*largest.answer >= 8 / 1.01);
    CHECK(*largest.beyond > 8);
}
