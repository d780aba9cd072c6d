// The shipped scenarios on the shared profiles: every point passes the checks before a
// run, and the base points give their pinned summary.json and events.csv digest
// (tests/golden/scenarios/).
#include <catch2/catch.hpp>

#include "shipped_support.h"

using namespace memsim::test;

TEST_CASE("shared: every point of every scenario on the shared profiles passes the checks before a run", "[shared]") {
    // mobilenetv2_b4 1, prefetch_timing 1 + 8, swap_vs_recompute 1 + 4 x 3 x 4.
    CHECK(check_shipped_points(true) == 1 + 9 + 49);
}

TEST_CASE("shared: golden: every scenario on the shared profiles gives its pinned summary.json and events.csv digest", "[shared]") {
    check_scenario_goldens(true);
}
