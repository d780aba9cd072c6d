// The engine's tensor table (sim/engine/tensor_state.h) on a hand-built workload: each
// storage's uses in plan order (a view's reads are its storage's), and the evictable
// order, which only a run that can evict keeps (the memory manager asks for it when the
// run has a budget; every other run pays nothing for it per tensor).
#include <catch2/catch.hpp>

#include "models/workload/exec_plan.h"
#include "sim/engine/tensor_state.h"

using namespace memsim;

namespace {

// x (an input), a = op0(x), v = a view of a, b = op1(v), c = op2(a, b), d = op3(x).
Workload hand_built() {
    Workload w;
    w.tensors = {{"x", 64, kNoOp, false, true}, {"a", 64, 0}, {"v", 0, 0}, {"b", 64, 1}, {"c", 64, 2}, {"d", 64, 3}};
    w.tensors[2].alias_of = 1;
    w.ops.resize(4);
    w.ops[0].inputs = {0};
    w.ops[0].outputs = {1, 2};
    w.ops[1].inputs = {2};
    w.ops[1].outputs = {3};
    w.ops[2].inputs = {1, 3};
    w.ops[2].outputs = {4};
    w.ops[3].inputs = {0};
    w.ops[3].outputs = {5};
    for (Op& op : w.ops) op.cost_ms = 1.0;
    return w;
}

}  // namespace

TEST_CASE("tensor table: a storage's uses in plan order, a view's reads counted as its storage's") {
    const Workload w = hand_built();
    const ExecPlan plan = straight_plan(w);
    TensorTable table(w, plan, 1.0);
    CHECK(table.storage(2) == 1);
    // a is read by op1 (through v) and op2; x by op0 and op3; b by op2; c and d never.
    CHECK(table.next_use_op(1) == 1);
    table.mark_used(2);  // op1's read of v is a's use
    CHECK(table.next_use_op(1) == 2);
    table.mark_used(1);
    CHECK_FALSE(table.has_future_use(1));
    CHECK(table.next_use_op(0) == 0);
    table.mark_used(0);
    CHECK(table.next_use_op(0) == 3);
    CHECK(table.next_use_op(3) == 2);
    CHECK_FALSE(table.has_future_use(4));
    CHECK_FALSE(table.has_future_use(5));
    // From the start of op 1 to the next use of x (op 3): ops 1 and 2, 1 ms each.
    CHECK(table.ms_until_next_use(0, 1) == 2.0);
}

TEST_CASE("tensor table: the evictable order is kept only when asked for") {
    const Workload w = hand_built();
    const ExecPlan plan = straight_plan(w);
    TensorTable table(w, plan, 1.0);
    table.stamp_evictable(3);  // a stamp alone never lists a tensor
    CHECK(table.evictable_order().front() == EvictableOrder::kEnd);
    CHECK_FALSE(table.evictable_order().contains(3));

    table.keep_evictable_order();
    for (const TensorId t : {1, 3, 4}) {
        table.stamp_evictable(t);
        table.list_evictable(t);
    }
    table.stamp_evictable(1);  // unlocked again: moves to the back
    table.unlist_evictable(3);
    std::vector<TensorId> order;
    for (TensorId t = table.evictable_order().front(); t != EvictableOrder::kEnd; t = table.evictable_order().next(t))
        order.push_back(t);
    CHECK(order == std::vector<TensorId>{4, 1});
    CHECK(table.seq(1) > table.seq(4));
}
