// Looking things up in a run's event log, for tests.
#pragma once

#include <catch2/catch.hpp>

#include "sim/engine/run_result.h"

namespace memsim::test {

// The first activity of `lane` in log order; fails the test when there is none.
inline const Activity& first_in_lane(const RunResult& r, const char* lane) {
    for (const Activity& a : r.log.activities)
        if (a.lane == lane) return a;
    FAIL("no activity in lane " << lane);
    return r.log.activities.front();
}

}  // namespace memsim::test
