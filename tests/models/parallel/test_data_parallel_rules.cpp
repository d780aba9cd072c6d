// The data-parallel rules of models/parallel/ on numbers worked out by hand or published:
// ZeRO's Figure 1 (Rajbhandari et al., SC'20), the ring's bytes, gradient buckets.
#include <catch2/catch.hpp>

#include "models/parallel/collective_algorithms.h"
#include "models/parallel/data_parallel.h"

using namespace memsim;

namespace {

// One parameter tensor, its gradient and its optimizer state, with P, G and O bytes per
// parameter for psi parameters.
Workload model_of(double psi, double p, double g, double o) {
    Workload w;
    const auto add = [&](const char* name, double bytes, TensorRole role) {
        Tensor t;
        t.name = name;
        t.bytes = static_cast<std::uint64_t>(bytes);
        t.constant = true;
        t.role = role;
        w.tensors.push_back(t);
    };
    add("p", p * psi, TensorRole::parameter);
    add("g", g * psi, TensorRole::gradient);
    add("o", o * psi, TensorRole::optimizer_state);
    return w;
}

}  // namespace

TEST_CASE("data parallel: ZeRO's Figure 1 per-rank model state (7.5e9 parameters, K = 12, 64 GPUs)") {
    // Mixed-precision Adam: 2 + 2 + 12 bytes per parameter. The paper's figure: 120 GB,
    // 31.4 GB, 16.6 GB, 1.9 GB for the baseline and stages 1, 2, 3.
    const Workload w = model_of(7.5e9, 2, 2, 12);
    const auto per_rank = [&](int zero) { return rank_model_states(w, *zero_stage(zero), 64).total(); };
    CHECK(per_rank(0) == 120'000'000'000ull);
    CHECK(per_rank(1) == 15'000'000'000ull + 15'000'000'000ull + 1'406'250'000ull);  // 2Ψ + 2Ψ + 12Ψ/64 = 31.4 GB
    CHECK(per_rank(2) == 15'000'000'000ull + 1'640'625'000ull);                      // 2Ψ + 14Ψ/64 = 16.6 GB
    CHECK(per_rank(3) == 1'875'000'000ull);                                          // 16Ψ/64 = 1.9 GB
    // fp32 Adam (4/4/8) on 4 ranks: (P+G+O)Ψ, PΨ+GΨ+OΨ/N, PΨ+(G+O)Ψ/N, (P+G+O)Ψ/N.
    const Workload fp32 = model_of(1000, 4, 4, 8);
    CHECK(rank_model_states(fp32, *zero_stage(0), 4).total() == 16000);
    CHECK(rank_model_states(fp32, *zero_stage(1), 4).total() == 4000 + 4000 + 2000);
    CHECK(rank_model_states(fp32, *zero_stage(2), 4).total() == 4000 + 1000 + 2000);
    CHECK(rank_model_states(fp32, *zero_stage(3), 4).total() == 4000);
    // A partition is padded: 10 B on 4 ranks is 3 B each.
    CHECK(rank_model_states(model_of(1, 1, 1, 10), *zero_stage(1), 4).optimizer_state == 3);
}

TEST_CASE("data parallel: a ring reduce-scatter and all-gather send what the all-reduce sends, in as many steps") {
    const CollectiveAlgorithm& ring = *collective_algorithm("ring");
    for (const int n : {2, 3, 4, 8}) {
        const double s = 1200;
        const auto ar = ring.steps(CollectiveKind::all_reduce, n, s);
        const auto rs = ring.steps(CollectiveKind::reduce_scatter, n, s);
        const auto ag = ring.steps(CollectiveKind::all_gather, n, s);
        CHECK(ar.size() == static_cast<std::size_t>(2 * (n - 1)));
        CHECK(rs.size() + ag.size() == ar.size());
        for (int r = 0; r < n; ++r) {
            CHECK(bytes_sent(ar, r) == Approx(2.0 * (n - 1) / n * s).epsilon(1e-12));
            CHECK(bytes_sent(rs, r) + bytes_sent(ag, r) == Approx(bytes_sent(ar, r)).epsilon(1e-12));
        }
        for (const CollectiveFlow& f : ar.front()) CHECK(f.to == (f.from + 1) % n);
    }
    CHECK(ring.steps(CollectiveKind::all_reduce, 1, 1200).empty());
    CHECK(collective_algorithm("tree") == nullptr);
}

TEST_CASE("data parallel: gradients are bucketed in the order the backward completes them") {
    // op0 makes a (100 B), op1 b (300 B), op2 c (50 B), op3 rewrites a's storage through a
    // view, op4 reads everything. Buckets of 350 B: {b, c} closes at 350 after op2, then
    // {a}, complete only after op3.
    Workload w;
    const auto tensor = [&](std::uint64_t bytes, int producer, TensorId alias = -1) {
        Tensor t;
        t.name = "t" + std::to_string(w.tensors.size());
        t.bytes = alias >= 0 ? 0 : bytes;
        t.producer = producer;
        t.alias_of = alias;
        t.role = TensorRole::gradient;
        w.tensors.push_back(t);
        return static_cast<TensorId>(w.tensors.size()) - 1;
    };
    const TensorId a = tensor(100, 0), b = tensor(300, 1), c = tensor(50, 2), a2 = tensor(0, 3, a);
    for (int i = 0; i < 5; ++i) {
        Op op;
        op.name = "op" + std::to_string(i);
        op.cost_ms = 1;
        if (i < 4) op.outputs = {std::vector<TensorId>{a, b, c, a2}[static_cast<std::size_t>(i)]};
        if (i == 4) op.inputs = {a2, b, c};
        w.ops.push_back(op);
    }
    const BucketPlan plan = plan_gradient_buckets(w, 350);
    REQUIRE(plan.buckets.size() == 2);
    CHECK(plan.buckets[0].storages == std::vector<TensorId>{b, c});
    CHECK(plan.buckets[0].bytes == 350);
    CHECK(plan.buckets[0].ready_after_op == 2);
    CHECK(plan.buckets[1].storages == std::vector<TensorId>{a});
    CHECK(plan.buckets[1].ready_after_op == 3);
    CHECK(plan.bucket_of_storage[static_cast<std::size_t>(a)] == 1);
    const BucketPlan whole = plan_gradient_buckets(w, std::nullopt);
    REQUIRE(whole.buckets.size() == 1);
    CHECK(whole.buckets[0].bytes == 450);
    CHECK(whole.buckets[0].ready_after_op == 3);
}
