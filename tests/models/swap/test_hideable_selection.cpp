// The hideable selection (models/swap/selection/hideable_selection.cpp) on a trace worked
// out on paper, against the budget selection on the same trace.
#include <catch2/catch.hpp>

#include "models/swap/selection/swap_selection.h"
#include "test_support.h"

using namespace memsim;

namespace {

// Forward: op0 t0 (5 ms), op1 t1 (10 ms), op2 t2 (5 ms), 1000 B each. Backward: op3 reads
// t2, op4 reads t1, op5 reads t0 (10 B outputs, 5 ms). Live during ops: 1000, 2000, 3000,
// 3010, 2020, 1030. Op starts: 0, 5, 15, 20, 25, 30. Windows: t0 absent over ops 1-4
// (needed at 30), t1 over 2-3 (needed at 25), t2 over none. Disk 100 B/ms both ways: 10 ms
// per write or read.
Workload three_maps() {
    return test::WorkloadBuilder()
        .op(5, 1000, {}, {})
        .op(10, 1000, {}, {})
        .op(5, 1000, {}, {})
        .op(5, 10, {2}, {2})
        .op(5, 10, {1}, {1})
        .op(5, 10, {0}, {0, 3, 4})
        .build(3);
}

SwapPlan hideable(const Workload& w, std::optional<std::uint64_t> budget, double bytes_per_s = 100000) {
    const SelectionInputs in{budget, TransferModel({bytes_per_s, bytes_per_s, 0, 0}), 1.0, {}};
    return make_swap_selection(*find_row(swap_selections(), "hideable"))->plan(w, in);
}

}  // namespace

TEST_CASE("hideable selection: without a budget only the swaps the disk hides, at the peak") {
    // Worst op2 (3000, starts at 15): t0 and t1 cover it. t0 alone: written 5-15 (by op2's
    // start), read 20-30, needed at 30: hidden. t1 alone: written 15-25, 10 ms after op2
    // starts, and read 25-35 for 25: exposed. t0 is taken; the worst is then op3 (2010,
    // starts at 20), covered by t1 only, whose write would end at 25: left resident.
    const Workload w = three_maps();
    const SwapPlan p = hideable(w, std::nullopt);
    REQUIRE(p.selected == std::vector<TensorId>{0});
    CHECK(p.selected_bytes == 1000);
    CHECK(p.out_after[0] == std::vector<TensorId>{0});
    CHECK(p.in_for[5] == std::vector<TensorId>{0});
    // feature_maps takes all three whatever the disk.
    CHECK(make_swap_selection(*find_row(swap_selections(), "feature_maps"))->plan(w, {}).selected.size() == 3);
}

TEST_CASE("hideable selection: a budget takes exposed swaps too, until it is met") {
    const Workload w = three_maps();
    CHECK(hideable(w, 2100).selected == std::vector<TensorId>{0});  // t0 brings op3 to 2010
    const SwapPlan p = hideable(w, 1500);                            // op3 needs t1 as well
    CHECK(p.selected.size() == 2);
    CHECK(p.selected_bytes == 2000);
}

TEST_CASE("hideable selection: a fast disk hides both, a slow one neither") {
    const Workload w = three_maps();
    // 1000 B/ms: 1 ms per transfer. t0 (written 5-6, read by 21 for 30) and then t1
    // (written 15-16 before op3 at 20, read by 21 for 25) are both hidden.
    CHECK(hideable(w, std::nullopt, 1e6).selected.size() == 2);
    // 10 B/ms: t0 alone is written 5-105, long after op2 starts: nothing is hidden.
    CHECK(hideable(w, std::nullopt, 1e4).selected.empty());
}
