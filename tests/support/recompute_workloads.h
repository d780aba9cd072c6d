// Hand-worked workloads shared by the recomputation tests (test_recompute_engine.cpp
// works out each heuristic's choice on them; test_tier_predictions.cpp reuses them).
#pragma once

#include "test_support.h"

namespace memsim::test {

// Four candidates x0..x3 (1, 6, 3 and 4 B) made early, kept idle across two big ops,
// then each read once at the end (test_recompute_engine.cpp: the scores per heuristic).
inline Workload four_candidates() {
    return WorkloadBuilder()
        .op(1.0, 1, {}, {})
        .op(8.0, 6, {}, {})
        .op(0.5, 3, {}, {})
        .op(0.6, 4, {}, {})
        .op(2.0, 1, {}, {4})
        .op(1.0, 2, {}, {5})
        .op(1.0, 1, {0}, {0, 6})
        .op(1.0, 1, {1}, {1, 7})
        .op(1.0, 1, {2}, {2, 8})
        .op(1.0, 1, {3}, {3, 9})
        .build(6);
}

}  // namespace memsim::test
