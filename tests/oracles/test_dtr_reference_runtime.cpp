// The DTR reference runtime: a hand-traced recursive recomputation, out of memory,
// thrash limit, and properties on the uniform linear network.
#include <catch2/catch.hpp>

#include "dtr_reference_runtime.h"
#include "models/workload/synthetic.h"

using namespace memsim;

namespace {

DtrRuntimeResult run(const Workload& w, const std::string& heuristic_name, std::uint64_t budget,
                     double max_recompute_ms = std::numeric_limits<double>::infinity()) {
    auto heuristic = make_eviction_heuristic(heuristic_name, {});
    DtrRuntimeOptions options;
    options.budget_bytes = budget;
    options.max_recompute_ms = max_recompute_ms;
    return run_dtr_reference(w, *heuristic, options);
}

// A: () -> a, B: a -> b, C: b -> c (1 byte each), D: () -> d (5 bytes), E: c -> e (1 byte);
// every op costs 1 ms.
Workload recursion_workload() {
    Workload w;
    w.name = "recursion";
    const std::vector<std::pair<std::string, std::uint64_t>> outputs{{"a", 1}, {"b", 1}, {"c", 1}, {"d", 5}, {"e", 1}};
    const std::vector<std::vector<TensorId>> inputs{{}, {0}, {1}, {}, {2}};
    for (int i = 0; i < 5; ++i) {
        w.tensors.push_back(Tensor{outputs[i].first, outputs[i].second, i, false, false, -1});
        w.ops.push_back(Op{"op_" + outputs[i].first, 1.0, inputs[i], {i}, {}, {}, {}});
    }
    w.forward_end = 5;
    return w;
}

}  // namespace

TEST_CASE("reference runtime: a recomputation whose input was itself evicted") {
    // Budget 6, heuristic size (all 1-byte candidates tie: the most recently inserted goes).
    // After C the pool is [a, c, b] (b re-enters when C unlocks it), 3 bytes resident.
    // D needs 5: evict b (last), then c -> 1 + 5 = 6. Pool [a, d].
    // E needs c: C needs b: B locks a, needs 1 byte: evict d (the only candidate), recompute b,
    // then recompute c, then run E. Recomputed: B and C; evicted: b, c, d; clock 7.
    const DtrRuntimeResult r = run(recursion_workload(), "size", 6);
    CHECK(r.status == RecomputeStatus::Ok);
    CHECK(r.recomputed_ops == 2);
    CHECK(r.recompute_ms == 2.0);
    CHECK(r.compute_ms == 5.0);
    CHECK(r.clock_ms == 7.0);
    CHECK(r.evictions == 3);
    CHECK(r.peak_bytes == 6);
}

TEST_CASE("reference runtime: out of memory names the op, the bytes and the budget") {
    // f1 needs 1 byte while its input f0 (locked) fills the 1-byte budget.
    const DtrRuntimeResult r = run(make_uniform_linear(4), "dtr", 1);
    CHECK(r.status == RecomputeStatus::OutOfMemory);
    CHECK(r.message == "out of memory at op 1 'f1': needs 1 B, budget 1 B, 1 B resident and nothing evictable");
    CHECK(r.recomputed_ops == 0);
}

TEST_CASE("reference runtime: thrash limit stops at the first recomputation beyond it") {
    // n=16, budget 4 needs 57 recomputations with dtr; with a 10 ms limit the run stops as
    // soon as the 11th (1 ms each) completes.
    const DtrRuntimeResult r = run(make_uniform_linear(16), "dtr", 4, 10.0);
    CHECK(r.status == RecomputeStatus::Thrash);
    CHECK(r.recomputed_ops == 11);
    CHECK(r.recompute_ms == 11.0);
}

TEST_CASE("reference runtime: no recomputation at or above the unbudgeted peak") {
    const Workload w = make_uniform_linear(32);
    const DtrRuntimeResult unbounded = run(w, "dtr", std::numeric_limits<std::uint64_t>::max());
    // Forward keeps f0..f31 (32 bytes); b31 is computed after f31 is released: peak 32.
    CHECK(unbounded.peak_bytes == 32);
    CHECK(unbounded.recomputed_ops == 0);
    for (const std::string& name : eviction_heuristic_names()) {
        INFO(name);
        const DtrRuntimeResult r = run(w, name, unbounded.peak_bytes);
        CHECK(r.status == RecomputeStatus::Ok);
        CHECK(r.recomputed_ops == 0);
        CHECK(r.evictions == 0);
    }
}

TEST_CASE("reference runtime: a smaller budget never lowers dtr's recomputation count (uniform linear)") {
    for (int n : {16, 32, 64}) {
        const Workload w = make_uniform_linear(n);
        int previous = -1;
        for (std::uint64_t budget = static_cast<std::uint64_t>(n); budget >= 3; --budget) {
            INFO("n=" << n << " budget=" << budget);
            const DtrRuntimeResult r = run(w, "dtr", budget);
            REQUIRE(r.status == RecomputeStatus::Ok);
            CHECK(r.recomputed_ops >= previous);
            previous = r.recomputed_ops;
        }
    }
}
