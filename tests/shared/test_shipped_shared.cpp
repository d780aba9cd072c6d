// The shipped scenarios on the shared profiles: they run as shipped and give their
// pinned summary.json and events.csv digest (tests/golden/scenarios/).
#include <catch2/catch.hpp>

#include "shipped_support.h"

using namespace memsim::test;

TEST_CASE("shared: every scenario on the shared profiles runs as shipped") { run_shipped_scenarios(true); }

TEST_CASE("shared: golden: every scenario on the shared profiles gives its pinned summary.json and events.csv digest") {
    check_scenario_goldens(true);
}
