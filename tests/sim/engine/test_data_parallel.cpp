// Data-parallel ranks on the node (docs/parallel.md) on tiny steps whose timelines are
// worked out by hand. Every PCIe link: 1000 B/ms each way; a GPU-to-GPU route crosses
// two links (the sender's up, the receiver's down), so its latency is twice a link's.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "log_support.h"
#include "test_support.h"

using namespace memsim;

namespace {

RunResult run_ranks(const Workload& w, const std::string& policy, const std::string& platform) {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {" + platform + "}\npolicy: " + policy + "\n",
                                      "test");
    return simulate(w, s);
}

const NodeFigures::Rank& rank_of(const RunResult& r, int g) {
    REQUIRE(r.summary.node);
    REQUIRE(r.summary.node->gpus[static_cast<std::size_t>(g)].rank);
    return *r.summary.node->gpus[static_cast<std::size_t>(g)].rank;
}

// Tensors of `roles` get those roles (the builder's tensor i is op i's output).
Workload with_roles(Workload w, const std::vector<std::pair<TensorId, TensorRole>>& roles) {
    for (const auto& [t, role] : roles) w.tensors[static_cast<std::size_t>(t)].role = role;
    return w;
}

// op0 makes the gradient g (4000 B) in 1 ms; op1, the optimizer, reads it for 1 ms.
Workload one_gradient() {
    return with_roles(test::WorkloadBuilder().op(1, 4000, {}, {}).op(1, 10, {0}, {0}).build(0), {{0, TensorRole::gradient}});
}

double first_start(const RunResult& r, std::string_view lane, int gpu = 0) {
    for (const Activity& a : r.log.activities)
        if (a.lane == lane && a.gpu == gpu) return a.start_ms;
    return -1;
}

}  // namespace

namespace {

// N = 4, S = 4000 B, B = 1000 B/ms, link latency 0.01 ms (route 0.02 ms): 6 steps of
// 1000 B, each 1 + 0.02 ms: 6.12 ms, from op0's end at 1 to 7.12; op1 waits for it
// (exposed 6.12 ms) and ends at 8.12.
void check_ring_over_pcie(const std::string& sw) {
    {
        const RunResult r = run_ranks(one_gradient(), "{data_parallel: {zero: 0, bucket: whole}}",
                                      "gpus: 4, host: {link: {bandwidth: 1000000B/s, latency: 0.01ms}}" + sw);
        CHECK(r.summary.status == "ok");
        CHECK(r.summary.time_ms == Approx(8.12).epsilon(1e-9));
        CHECK(r.summary.node->step_time_ms == Approx(8.12).epsilon(1e-9));
        for (int g = 0; g < 4; ++g) {
            const NodeFigures::Rank& rank = rank_of(r, g);
            CHECK(rank.collective_bytes == 6000);  // 2(N-1)/N S
            CHECK(rank.collective_ms == Approx(6.12).epsilon(1e-9));
            CHECK(rank.exposed_collective_ms == Approx(6.12).epsilon(1e-9));
            CHECK(rank.model_state.gradient == 4000);
        }
        CHECK(first_start(r, lane::kCollective, 3) == Approx(1.0).epsilon(1e-9));
        for (const NodeFigures::Link& l : r.summary.node->links) {
            if (l.name.rfind("switch", 0) == 0) {
                CHECK(l.bytes == 0);  // peer to peer below the switch
                continue;
            }
            CHECK(l.bytes == 6000);  // six chunks of 1000 B each way
            CHECK(l.busy_ms == Approx(6.12).epsilon(1e-9));
        }
    }
}

}  // namespace

TEST_CASE("data parallel: a ring all-reduce of S bytes on N GPUs over PCIe takes 2(N-1)/N S/B + 2(N-1) route latencies") {
    check_ring_over_pcie("");
}

TEST_CASE("data parallel: below one PCIe switch the ring's flows go peer to peer, not through the uplink") {
    check_ring_over_pcie(", gpus_per_switch: 4, switch: {bandwidth: 1000000B/s}");
}

TEST_CASE("data parallel: over NVLink the same ring takes its own bandwidth and latency, and PCIe carries nothing") {
    // NVLink 4000 B/ms, 0.005 ms a link: 6 steps of 1000 B / 4000 + 0.01 = 0.26 ms: 1.56 ms.
    const RunResult r = run_ranks(one_gradient(), "{data_parallel: {zero: 0, bucket: whole}}",
                                  "gpus: 4, host: {link: {bandwidth: 1000000B/s, latency: 0.01ms}}, "
                                  "nvlink: {bandwidth: 4000000B/s, latency: 0.005ms}");
    CHECK(r.summary.time_ms == Approx(1 + 1.56 + 1).epsilon(1e-9));
    CHECK(rank_of(r, 0).collective_ms == Approx(1.56).epsilon(1e-9));
    for (const NodeFigures::Link& l : r.summary.node->links) {
        INFO(l.name << " " << l.direction);
        if (l.name.rfind("nvlink", 0) == 0) {
            CHECK(l.bytes == 6000);
            CHECK((l.direction == "tx" || l.direction == "rx"));
        } else {
            CHECK(l.bytes == 0);
        }
    }
    // Each collective flow on an NVLink lane carries its key: a GPU-to-GPU link, tx out, rx in, no tier.
    int flows = 0;
    for (const Activity& a : r.log.activities) {
        const std::string_view lane = a.lane;
        if (lane.rfind("nvlink", 0) != 0) continue;
        ++flows;
        CHECK(a.key.kind == LaneKind::PeerLink);
        CHECK(a.key.direction == (lane.substr(lane.size() - 2) == "tx" ? Direction::Out : Direction::In));
        CHECK(a.key.tier == kNoTier);
    }
    CHECK(flows == 4 * 6 * 2);  // 4 GPUs, 6 ring steps, each flow on its sender's tx and its receiver's rx
}

TEST_CASE("data parallel: two buckets overlap the backward, one whole bucket is all exposed") {
    // N = 2, no latency. op0 makes g0 (2000 B) in 1 ms, op1 g1 (2000 B) in 5 ms, op2 reads
    // both (1 ms). An all-reduce of 2000 B on 2 GPUs: 2 steps of 1000 B, 2 ms.
    const Workload w = with_roles(
        test::WorkloadBuilder().op(1, 2000, {}, {}).op(5, 2000, {}, {}).op(1, 10, {0, 1}, {0, 1}).build(0),
        {{0, TensorRole::gradient}, {1, TensorRole::gradient}});
    const std::string node = "gpus: 2, host: {link: {bandwidth: 1000000B/s}}";
    // Buckets of 2000 B: g0's all-reduce 1-3 under op1 (1-6); g1's 6-8; op2 8-9: exposed 2 ms.
    const RunResult buckets = run_ranks(w, "{data_parallel: {zero: 0, bucket: 2000B}}", node);
    CHECK(buckets.summary.time_ms == Approx(9).epsilon(1e-9));
    CHECK(rank_of(buckets, 0).exposed_collective_ms == Approx(2).epsilon(1e-9));
    CHECK(rank_of(buckets, 0).collective_ms == Approx(4).epsilon(1e-9));
    CHECK(rank_of(buckets, 1).collective_bytes == 4000);  // 2(N-1)/N S per bucket
    CHECK(first_start(buckets, lane::kCollective) == Approx(1).epsilon(1e-9));
    // One bucket: 4000 B after op1, 6-10; op2 10-11: exposed 4 ms.
    const RunResult whole = run_ranks(w, "{data_parallel: {zero: 0, bucket: whole}}", node);
    CHECK(whole.summary.time_ms == Approx(11).epsilon(1e-9));
    CHECK(rank_of(whole, 1).exposed_collective_ms == Approx(4).epsilon(1e-9));
    CHECK(first_start(whole, lane::kCollective) == Approx(6).epsilon(1e-9));
}

TEST_CASE("data parallel: a swap-out and an all-reduce on the same PCIe link share it max-min") {
    // N = 2, no latency. op0 makes the activation a (1000 B, 1 ms), op1 the gradient g
    // (2000 B, no time); async swapping to host RAM writes a from 1 ms while g's all-reduce
    // starts. On pcie_i up: a's flow and the ring's first chunk (1000 B each) get 500 B/ms
    // each: both end at 3. The ring's second chunk runs alone, 3-4. op2 reads g: 4-5; a
    // is read back one op ahead of op3, under op2.
    const Workload w = with_roles(
        test::WorkloadBuilder().op(1, 1000, {}, {}).op(0, 2000, {}, {}).op(1, 10, {1}, {1}).op(1, 10, {0}, {0}).build(1),
        {{0, TensorRole::activation}, {1, TensorRole::gradient}});
    const RunResult r = run_ranks(
        w, "{data_parallel: {zero: 0, bucket: whole}, swap: {mode: async, placement: host, prefetch: {lead_ops: 1}}}",
        "gpus: 2, host: {link: {bandwidth: 1000000B/s}}");
    REQUIRE(r.summary.status == "ok");
    for (int g = 0; g < 2; ++g) {
        const Activity* write = nullptr;
        const Activity* collective = nullptr;
        for (const Activity& a : r.log.activities) {
            if (a.gpu != g) continue;
            if (a.lane == std::string_view(tier_row(kHostRamTier).lane_out)) write = &a;
            if (a.lane == lane::kCollective) collective = &a;
        }
        REQUIRE(write);
        REQUIRE(collective);
        CHECK(write->start_ms == Approx(1).epsilon(1e-9));
        CHECK(write->end_ms == Approx(3).epsilon(1e-9));
        CHECK(collective->start_ms == Approx(1).epsilon(1e-9));
        CHECK(collective->end_ms == Approx(4).epsilon(1e-9));
    }
    CHECK(first_start(r, lane::kCompute, 1) == 0);
    CHECK(rank_of(r, 0).exposed_collective_ms == Approx(3).epsilon(1e-9));
}

namespace {

// op0 makes g (2000 B, 1 ms); op1, Adam, reads g, the parameter p (1000 B) and the state
// s (4000 B) for 2 ms, and releases g.
// A constant of `bytes` with `role`, read by `readers` (the builder makes produced tensors only).
void add_constant(Workload& w, std::uint64_t bytes, TensorRole role, const std::vector<int>& readers) {
    Tensor t;
    t.name = "c" + std::to_string(w.tensors.size());
    t.bytes = bytes;
    t.constant = true;
    t.role = role;
    w.tensors.push_back(t);
    for (int op : readers) w.ops[static_cast<std::size_t>(op)].inputs.push_back(static_cast<TensorId>(w.tensors.size()) - 1);
}

void check_model_state(const NodeFigures::Rank& rank, std::uint64_t parameter, std::uint64_t gradient,
                       std::uint64_t optimizer_state) {
    CHECK(rank.model_state.parameter == parameter);
    CHECK(rank.model_state.gradient == gradient);
    CHECK(rank.model_state.optimizer_state == optimizer_state);
}

Workload adam_step() {
    Workload w = with_roles(test::WorkloadBuilder().op(1, 2000, {}, {}).op(2, 10, {0}, {0}).build(0),
                            {{0, TensorRole::gradient}});
    add_constant(w, 1000, TensorRole::parameter, {1});
    add_constant(w, 4000, TensorRole::optimizer_state, {1});
    return w;
}

}  // namespace

TEST_CASE("data parallel: ZeRO-1 shards the optimizer state and the step, then all-gathers the parameters") {
    // N = 2, no latency. ZeRO-1: s is 2000 B on each rank and the step 1 ms; g's
    // all-reduce 1-3, the step 3-4, the all-gather of p (1 step of 500 B) 4-4.5. DDP: the
    // step 3-5, nothing after.
    const Workload w = adam_step();
    const std::string node = "gpus: 2, host: {link: {bandwidth: 1000000B/s}}";
    const RunResult zero1 = run_ranks(w, "{data_parallel: {zero: 1}}", node);
    CHECK(zero1.summary.time_ms == Approx(4.5).epsilon(1e-9));
    const NodeFigures::Rank& r1 = rank_of(zero1, 1);
    check_model_state(r1, 1000, 2000, 2000);
    CHECK(r1.collective_bytes == 2000 / 2 * 2 + 500);
    CHECK(r1.collective_ms == Approx(2.5).epsilon(1e-9));
    CHECK(r1.exposed_collective_ms == Approx(2.5).epsilon(1e-9));    // before the step and at the end
    CHECK(zero1.summary.live_peak_bytes == 1000 + 2000 + 2000 + 5);  // the step's 10 B output is sharded too
    const RunResult ddp = run_ranks(w, "{data_parallel: {zero: 0}}", node);
    CHECK(ddp.summary.time_ms == Approx(5).epsilon(1e-9));
    CHECK(rank_of(ddp, 0).model_state.optimizer_state == 4000);
    CHECK(ddp.summary.live_peak_bytes == 1000 + 2000 + 4000 + 10);
    // The full gradients are model state under DDP and ZeRO-1, and buckets are views of them.
    for (const RunResult* result : {&zero1, &ddp}) {
        const TransientBytes& t = rank_of(*result, 0).transient;
        CHECK(t.gathered_parameters + t.unreduced_gradients + t.peak == 0);
    }
}

TEST_CASE("data parallel: on one GPU the step is the single GPU's, with no collective time") {
    const std::string node = "host: {link: {bandwidth: 1000000B/s, latency: 0.01ms}}";
    const RunResult one = run_ranks(one_gradient(), "{data_parallel: {zero: 1}}", node);
    const RunResult plain = run_ranks(one_gradient(), "{}", node);
    CHECK(one.summary.time_ms == plain.summary.time_ms);
    CHECK(one.summary.live_peak_bytes == plain.summary.live_peak_bytes);
    CHECK(rank_of(one, 0).collective_bytes == 0);
    CHECK(rank_of(one, 0).exposed_collective_ms == 0);
    CHECK(one.summary.stall_ms == 0);
}

TEST_CASE("data parallel: settings memsim cannot simulate yet, and workloads without gradients, are refused by name") {
    const auto error_of = [](const std::string& policy, const Workload& w) {
        try {
            (void)run_ranks(w, policy, "gpus: 2, host: {link: {bandwidth: 1000000B/s}}");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error_of("{data_parallel: {zero: 3}, semantics: dtr}", one_gradient()),
               Catch::Contains("policy.data_parallel: zero 3 runs without recomputation and with the simulated semantics"));
    CHECK_THAT(error_of("{data_parallel: {zero: 3}, swap: {mode: async, select: parameters, placement: host}}", one_gradient()),
               Catch::Contains("policy.swap.select 'parameters' may move them: choose one of feature_maps, budget, "
                               "fixed_buffer, hideable, optimizer_state"));
    CHECK_THAT(error_of("{data_parallel: {zero: 5}}", one_gradient()), Catch::Contains("5 is not a ZeRO stage"));
    CHECK_THAT(error_of("{data_parallel: {offload: optimizer}}", one_gradient()),
               Catch::Contains("policy.data_parallel.offload: 'optimizer' needs policy.data_parallel.zero 1, 2 or 3"));
    CHECK_THAT(
        error_of("{data_parallel: {zero: 1, offload: optimizer}}", one_gradient()),
        Catch::Contains("policy.data_parallel: offload 'optimizer' runs the step on the host's CPU: give platform.host.cpu"));
    CHECK_THAT(error_of("{data_parallel: {bucket: 0B}}", one_gradient()), Catch::Contains("policy.data_parallel.bucket: 0 B"));
    CHECK_THAT(error_of("{data_parallel: {algorithm: tree}}", one_gradient()),
               Catch::Contains("policy.data_parallel.algorithm: 'tree' is not one of: ring"));
    CHECK_THAT(error_of("{data_parallel: {zero: 0}}", test::WorkloadBuilder().op(1, 10, {}, {}).build(0)),
               Catch::Contains("policy.data_parallel: the workload hand (batch 1) has no tensor whose role is gradient"));
}

TEST_CASE("data parallel: ZeRO-2 reduce-scatters the gradient, frees it and steps on its shard") {
    // N = 2, no latency. p (1000 B) and s's half (2000 B) are held from the start. g
    // (2000 B) is made 0-1; its reduce-scatter (1 step of 1000 B) runs 1-2, its shard
    // (1000 B) arrives as it is issued, and g is freed when it ends; the step reads the
    // shard 2-3 (1 ms: half of it), its 10 B output is 5 B; the all-gather of p 3-3.5.
    // Peak: 3000 + g + its shard = 6000 B; during the forward 3000 B + g only.
    const RunResult r = run_ranks(adam_step(), "{data_parallel: {zero: 2}}", "gpus: 2, host: {link: {bandwidth: 1000000B/s}}");
    REQUIRE(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(3.5).epsilon(1e-9));
    CHECK(r.summary.live_peak_bytes == 6000);
    const NodeFigures::Rank& rank = rank_of(r, 0);
    check_model_state(rank, 1000, 1000, 2000);
    CHECK(rank.collective_bytes == 1000 + 500);  // (N-1)/N of 2000 B, then of 1000 B
    // The full g (2000 B), 0-2, is the only transient buffer.
    CHECK(rank.transient.unreduced_gradients == 2000);
    CHECK(rank.transient.gathered_parameters == 0);
    CHECK(rank.transient.peak == 2000);
    CHECK(rank.exposed_collective_ms == Approx(1.5).epsilon(1e-9));
    // While the step runs only the constants and the step's output are live.
    std::uint64_t during_step = 0;
    for (const MemorySample& m : r.log.memory)
        if (m.gpu == 0 && m.time_ms <= 2.5) during_step = m.live_bytes;
    CHECK(during_step == 4005);
    std::uint64_t before_reduction = 0;
    for (const MemorySample& m : r.log.memory)
        if (m.gpu == 0 && m.time_ms <= 0.5) before_reduction = m.live_bytes;
    CHECK(before_reduction == 3000 + 2000);
}

TEST_CASE("data parallel: with the optimizer offloaded the step runs on the host, its CPU shared by the ranks") {
    // N = 2, ZeRO-1, no latency; the host's CPU: 1e6 flop/s and 1e6 B/s of memory. p
    // counts 1000 B / 4 = 250 parameters, 125 a rank: Adam is max(125 x 14 flops, 125 x 30
    // B) = 3.75 ms alone, 7.5 ms for the two ranks at once. op0 0-1; g's all-reduce 1-3
    // (the step's op does nothing on the GPU); each rank's 1000 B of g to the host 3-4 (its
    // own link), Adam 4-11.5, its 500 B of p back 11.5-12, the all-gather of p 12-12.5.
    const RunResult r = run_ranks(
        adam_step(), "{data_parallel: {zero: 1, offload: optimizer}}",
        "gpus: 2, host: {link: {bandwidth: 1000000B/s}, cpu: {speed: 1e6, memory_bandwidth: 1000000B/s}}");
    REQUIRE(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(12.5).epsilon(1e-9));
    CHECK(r.summary.live_peak_bytes == 1000 + 2000);  // p and g: the optimizer state is not on the GPU
    CHECK(r.summary.node->host_peak_bytes == 2 * 2000);
    for (int g = 0; g < 2; ++g) {
        const NodeFigures::Rank& rank = rank_of(r, g);
        REQUIRE(rank.offload);
        CHECK(rank.offload->host_step_ms == Approx(7.5).epsilon(1e-9));
        CHECK(rank.offload->bytes == 1000 + 500);
        CHECK(rank.offload->optimizer_state_bytes == 2000);
        CHECK(rank.model_state.optimizer_state == 0);
        CHECK(rank.exposed_collective_ms == Approx(2.5).epsilon(1e-9));
        CHECK(rank.collective_bytes == 2000 + 500);  // the all-reduce's 2 x 1000 B, the all-gather's 500 B
    }
    // The offload's and the collectives' flows on the PCIe links carry their key: a link of
    // the route, d2h out, h2d in, no tier (no swap here).
    int flows = 0;
    for (const Activity& a : r.log.activities) {
        const std::string_view lane = a.lane;
        const bool d2h = lane.size() > 4 && lane.substr(lane.size() - 4) == " d2h";
        if (!d2h && !(lane.size() > 4 && lane.substr(lane.size() - 4) == " h2d")) continue;
        ++flows;
        CHECK(a.key.kind == LaneKind::Link);
        CHECK(a.key.direction == (d2h ? Direction::Out : Direction::In));
        CHECK(a.key.tier == kNoTier);
    }
    CHECK(flows > 0);
    const auto first = [&](std::string_view lane) {
        for (const Activity& a : r.log.activities)
            if (a.lane == lane && a.gpu == 1) return std::pair{a.start_ms, a.end_ms};
        return std::pair{-1.0, -1.0};
    };
    CHECK(first(lane::kHostOptimizer).first == Approx(4).epsilon(1e-9));
    CHECK(first(lane::kHostOptimizer).second == Approx(11.5).epsilon(1e-9));
    CHECK(first(lane::kOffload).second == Approx(4).epsilon(1e-9));
}

TEST_CASE("data parallel: the offloaded optimizer state that does not fit in host RAM stops the run as host_full") {
    const RunResult r = run_ranks(
        adam_step(), "{data_parallel: {zero: 1, offload: optimizer}}",
        "gpus: 2, host: {link: {bandwidth: 1000000B/s}, memory: 3000B, cpu: {speed: 1e6, memory_bandwidth: 1000000B/s}}");
    CHECK(r.summary.status == "host_full");
    CHECK_THAT(r.summary.message, Catch::Contains("optimizer state (2000 B, offloaded) does not fit in host RAM"));
}

namespace {

// Two layers (test case below): op0 reads p, makes a; op1 reads q and a, makes b; op2 reads
// q and b, makes gq; op3 reads p and a, makes gp; op4 (Adam) reads gq, gp, p, q and s.
Workload zero3_step() {
    Workload w = with_roles(
        test::WorkloadBuilder()
            .op(1, 100, {}, {})
            .op(1, 100, {0}, {})
            .op(1, 2000, {1}, {1})
            .op(1, 1000, {0}, {0})
            .op(2, 10, {2, 3}, {2, 3})
            .build(2),
        {{0, TensorRole::activation}, {1, TensorRole::activation}, {2, TensorRole::gradient}, {3, TensorRole::gradient}});
    add_constant(w, 1000, TensorRole::parameter, {0, 3, 4});  // p
    add_constant(w, 2000, TensorRole::parameter, {1, 2, 4});  // q
    add_constant(w, 4000, TensorRole::optimizer_state, {4});  // s
    return w;
}

}  // namespace

TEST_CASE("data parallel: ZeRO-3 gathers each layer's parameters ahead of use and frees them after") {
    // N = 2, no latency, 1000 B/ms. Forward: op0 reads p (1000 B) and makes a (100 B), op1
    // reads q (2000 B) and a, makes b (100 B); backward: op2 reads q and b, makes gq (2000 B),
    // op3 reads p and a, makes gp (1000 B); op4, Adam, reads both gradients, p, q and s
    // (4000 B), 2 ms. Each rank holds half of p, q and s (3500 B) from the start.
    // Gathers (one step of S/2 each): p and q issued before op0 (q prefetched), p again
    // before op2 (prefetched under op2 for op3); q's backward gather would be issued under
    // op1, which still holds q: q stays from op1 to op2. p's gather 0-0.5, op0 0.5-1.5 (p
    // freed), q's gather 0.5-1.5, op1 1.5-2.5, p's second gather 2.5-3, op2 2.5-3.5 (q
    // freed), op3 3.5-4.5 (p freed), the reduce-scatter of 3000 B 4.5-6, the step on the
    // shards 6-7 (half of 2 ms). Peak under op2: 3500 + q + p + a + b + gq = 8700 B.
    const RunResult r = run_ranks(zero3_step(), "{data_parallel: {zero: 3, bucket: whole}}",
                                  "gpus: 2, host: {link: {bandwidth: 1000000B/s}}");
    REQUIRE(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(7).epsilon(1e-9));
    CHECK(r.summary.live_peak_bytes == 8700);
    const NodeFigures::Rank& rank = rank_of(r, 1);
    check_model_state(rank, 1500, 1500, 2000);
    CHECK(rank.collective_bytes == 500 + 1000 + 500 + 1500);
    CHECK(rank.exposed_collective_ms == Approx(0.5 + 1.5).epsilon(1e-9));
    // Gathered in full: p and q from 0 (p to 1.5, q to 3.5), p again 2.5-4.5: 3000 B at
    // most. Full gradients: gq from 2.5, gp from 3.5, both to 6: 3000 B. Together: p, q
    // and gq under op2 (5000 B); under op3 p, gq and gp (4000 B).
    CHECK(rank.transient.gathered_parameters == 3000);
    CHECK(rank.transient.unreduced_gradients == 3000);
    CHECK(rank.transient.peak == 5000);
    std::vector<std::pair<double, double>> collectives;
    for (const Activity& a : r.log.activities)
        if (a.lane == lane::kCollective && a.gpu == 0) collectives.emplace_back(a.start_ms, a.end_ms);
    REQUIRE(collectives.size() == 4);
    const std::vector<std::pair<double, double>> expected{{0, 0.5}, {0.5, 1.5}, {2.5, 3}, {4.5, 6}};
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(collectives[i].first == Approx(expected[i].first).margin(1e-9));
        CHECK(collectives[i].second == Approx(expected[i].second).margin(1e-9));
    }
}

TEST_CASE("data parallel: ZeRO-3 with an activation swapped to host RAM under a budget, the collectives on NVLink") {
    // The step above at 8650 B a GPU, its collectives on NVLink (1000 B/ms, no latency:
    // the same gathers), a swapped to host RAM over PCIe (1000 B/ms), read on demand
    // (lead_ops 0). a is written after its last forward use, 2.5-2.6; op2's gathered p
    // (2.5) fits (6700 B) but gq (2000 B) would make 8700: op2 waits for a's write and
    // frees it, runs 2.6-3.6 (peak 3500 + q + b + p + gq = 8600 B); b and q go after it;
    // a is read back 3.6-3.7 (a stall), op3 3.7-4.7, the reduce-scatter 4.7-6.2, the step
    // 6.2-7.2. The buffers are those of the run without a budget.
    const RunResult r = run_ranks(
        zero3_step(), "{data_parallel: {zero: 3, bucket: whole}, swap: {mode: async, placement: host, prefetch: {lead_ops: 0}}}",
        "gpus: 2, host: {link: {bandwidth: 1000000B/s}}, nvlink: {bandwidth: 1000000B/s, latency: 0ms}, "
        "memory: {budget: 8650B}");
    REQUIRE(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(7.2).epsilon(1e-9));
    CHECK(r.summary.live_peak_bytes == 8600);
    CHECK(r.summary.bytes_written == 100);
    CHECK(r.summary.bytes_read == 100);
    CHECK(r.summary.stall_ms == Approx(0.5 + 0.1 + 0.1 + 1.5).epsilon(1e-9));
    const NodeFigures::Rank& rank = rank_of(r, 0);
    CHECK(rank.exposed_collective_ms == Approx(0.5 + 1.5).epsilon(1e-9));
    CHECK(rank.transient.gathered_parameters == 3000);
    CHECK(rank.transient.unreduced_gradients == 3000);
    CHECK(rank.transient.peak == 5000);
    CHECK(first_start(r, tier_row(kHostRamTier).lane_in) == Approx(3.6).epsilon(1e-9));
    for (const NodeFigures::Link& l : r.summary.node->links)
        if (l.name.rfind("nvlink", 0) == 0) CHECK(l.bytes == 500 + 1000 + 500 + 1500);  // each collective's S/2
        else CHECK(l.bytes == 100);                                                     // a, out (d2h) and back (h2d)
}
