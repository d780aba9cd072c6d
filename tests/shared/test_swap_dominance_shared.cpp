// The swap policies do not contradict themselves (issue 14; docs/swap.md, "Dominance"),
// on MobilenetV2 batch 4 (os allocator), simulated semantics: the four measured
// contradictions, and the dominance properties on a small grid (the full grid:
// scripts/swap_dominance.sh).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "models/workload/mnn_profile.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

const char* kPhone = "{bandwidth: 104094472B/4.452s}";
const char* kSamsung = "{write_bandwidth: 315.22MiB/s, read_bandwidth: 797.91MiB/s}";
const char* kNvme = "{bandwidth: 3.2GB/s, read_latency: 12us, write_latency: 16us}";

Summary run(const Workload& w, const std::string& disk, const std::string& memory, const std::string& policy) {
    const Scenario s =
        parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: " + disk + memory + "}\npolicy: " + policy + "\n", "test");
    return simulate(w, s).summary;
}

const Workload& mobilenet() {
    static const Workload w = load_mnn_profile(shared_profile("MobilenetV2"), 4);
    return w;
}

std::string ratio(double r) { return ", memory: {budget_ratio: " + std::to_string(r) + "}"; }

}  // namespace

TEST_CASE("async with the budget prefetch beats sync at 60% on the phone disk, with no eviction", "[shared]") {
    // Was 32311.009 ms (eager) against 22866.489 ms (sync): eager reads pushed 9 tensors
    // out again. Now 20487.3 ms, nothing evicted or cancelled.
    const Workload& w = mobilenet();
    const Summary sync = run(w, kPhone, ratio(0.6), "{allocator: os, swap: {mode: sync, select: budget}}");
    const Summary async = run(w, kPhone, ratio(0.6), "{allocator: os, swap: {mode: async, select: budget}}");
    CHECK(sync.time_ms == Approx(22866.489).margin(1e-3));
    CHECK(async.time_ms == Approx(20487.3).margin(0.1));
    CHECK(async.evictions == 0);
    CHECK(async.swap_writes_cancelled == 0);
    CHECK(async.peak_bytes <= 350887471u);
}

TEST_CASE("just_in_time is at least as good as every fixed lead on the Samsung disk", "[shared]") {
    // Feature maps, async, no budget. Was 1.147x the compute time against 1.002x for lead_ops: 50.
    const Workload& w = mobilenet();
    const auto time = [&](const std::string& prefetch) {
        return run(w, kSamsung, "", "{allocator: os, swap: {mode: async, select: feature_maps, prefetch: " + prefetch + "}}").time_ms;
    };
    const double jit = time("just_in_time");
    CHECK(jit == Approx(w.compute_ms()).epsilon(1e-9));
    for (const char* lead : {"{lead_ops: 0}", "{lead_ops: 5}", "{lead_ops: 20}", "{lead_ops: 50}", "{lead_ops: 200}"}) {
        INFO(lead);
        CHECK(jit <= time(lead) * (1 + 1e-12));
    }
}

TEST_CASE("without a budget the budget prefetch keeps the peak that eager gives back", "[shared]") {
    // Samsung disk, feature maps: eager reads everything back at the backward start and
    // the live peak is the no-swap peak; the budget rule caps at the peak with reads on demand.
    const Workload& w = mobilenet();
    const Summary eager = run(w, kSamsung, "", "{allocator: os, swap: {mode: async, select: feature_maps, prefetch: eager}}");
    const Summary budget = run(w, kSamsung, "", "{allocator: os, swap: {mode: async, select: feature_maps}}");
    CHECK(eager.live_peak_bytes == 584812452u);
    CHECK(budget.live_peak_bytes == 347199396u);
    CHECK(budget.time_ms == Approx(w.compute_ms()).epsilon(1e-9));
}

TEST_CASE("the hideable selection swaps only what the phone disk can move in time", "[shared]") {
    // feature_maps: 246 selected, 243 writes cancelled. hideable: 5, none cancelled.
    const Workload& w = mobilenet();
    const Summary fm = run(w, kPhone, "", "{allocator: os, swap: {mode: async, select: feature_maps}}");
    const Summary hide = run(w, kPhone, "", "{allocator: os, swap: {mode: async, select: hideable}}");
    CHECK(fm.swap_selected_tensors == 246);
    CHECK(fm.swap_writes_cancelled == 243);
    CHECK(hide.swap_selected_tensors == 5);
    CHECK(hide.swap_writes_cancelled == 0);
    CHECK(hide.bytes_read == hide.bytes_written);
    CHECK(hide.live_peak_bytes < fm.live_peak_bytes);
    CHECK(hide.time_ms == Approx(w.compute_ms()).epsilon(1e-9));
}

TEST_CASE("dominance on a small grid: async never slower than sync or semi_sync, never above the budget", "[shared]") {
    const Workload& w = mobilenet();
    for (const char* disk : {kPhone, kSamsung, kNvme}) {
        for (const double r : {0.4, 0.7}) {
            INFO(disk << " " << r);
            const auto at = [&](const std::string& mode) {
                return run(w, disk, ratio(r), "{allocator: os, swap: {mode: " + mode + ", select: budget}}");
            };
            const Summary async = at("async");
            REQUIRE(async.status == "ok");
            CHECK(async.peak_bytes <= async.budget_bytes.value());
            CHECK(async.time_ms <= std::min(at("sync").time_ms, at("semi_sync").time_ms) * (1 + 1e-12));
        }
    }
}

TEST_CASE("dominance on a small grid: the hybrid is never slower than the better of swap-only and recompute-only", "[shared]") {
    // Tolerance 1%: docs/swap.md, "Dominance".
    const Workload& w = mobilenet();
    for (const char* disk : {kPhone, kNvme}) {
        for (const double r : {0.4, 0.7}) {
            INFO(disk << " " << r);
            const Summary swap = run(w, disk, ratio(r), "{allocator: os, swap: {mode: async, select: budget}}");
            const Summary dtr = run(w, disk, ratio(r), "{allocator: os, recompute: {heuristic: dtr}}");
            const Summary hybrid =
                run(w, disk, ratio(r), "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}");
            REQUIRE(hybrid.status == "ok");
            CHECK(hybrid.time_ms <= std::min(swap.time_ms, dtr.time_ms) * 1.01);
        }
    }
}

TEST_CASE("the hybrid mixes swap and recompute at 50% on the Samsung flash, faster than either alone", "[shared]") {
    // Its plan (the swaps the disk hides, here 29 feature maps covering 84% of the excess
    // over the budget, written within the forward pass) and DTR for the rest: 110 ops
    // recomputed. Was 2853.713 ms, the dtr run (no plan, every eviction dropped).
    const Workload& w = mobilenet();
    const Summary swap = run(w, kSamsung, ratio(0.5), "{allocator: os, swap: {mode: async, select: budget}}");
    const Summary dtr = run(w, kSamsung, ratio(0.5), "{allocator: os, recompute: {heuristic: dtr}}");
    const Summary hybrid =
        run(w, kSamsung, ratio(0.5), "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}");
    CHECK(swap.time_ms == Approx(2655.600).margin(1e-3));
    CHECK(dtr.time_ms == Approx(2853.713).margin(1e-3));
    CHECK(hybrid.time_ms == Approx(2623.799).margin(1e-3));
    CHECK(hybrid.swap_selected_tensors == 29);
    CHECK(hybrid.recomputed_ops == 110);
    CHECK(hybrid.peak_bytes <= 292406226u);
}

TEST_CASE("prefetch {budget: {cap: SIZE}} caps the early reads of the budget prefetch without a budget", "[shared]") {
    // Feature maps, async, phone disk, no budget. The default cap is the in-use peak of the
    // same run with reads on demand (546.4 MiB; that run takes 5,069.5 ms), kept at the
    // compute time; a higher cap lets early reads raise the peak, a cap below the peak holds
    // reads back until their op and the GPU waits for them.
    const Workload& w = mobilenet();
    const auto with = [&](const std::string& prefetch) {
        return run(w, kPhone, "", "{allocator: os, swap: {mode: async, select: feature_maps, prefetch: " + prefetch + "}}");
    };
    const Summary dflt = with("budget"), high = with("{budget: {cap: 1GiB}}"), low = with("{budget: {cap: 200MiB}}");
    CHECK(dflt.peak_bytes == 572970916u);
    CHECK(dflt.time_ms == Approx(w.compute_ms()).epsilon(1e-9));
    CHECK(high.peak_bytes == 584812452u);
    CHECK(low.peak_bytes == 572970916u);
    CHECK(low.time_ms == Approx(4117.219).margin(1e-3));
    const Summary on_demand = with("{lead_ops: 0}");
    CHECK(on_demand.live_peak_bytes == 572970916u);
    CHECK(on_demand.time_ms == Approx(5069.501).margin(1e-3));
    CHECK_THROWS_WITH(parse_scenario("workload: {synthetic: mlp}\npolicy: {swap: {mode: async, prefetch: {budget: {cap: 0}}}}\n", "t.yaml"),
                      Catch::Contains("policy.swap.prefetch.budget.cap: must be > 0"));
    CHECK_THROWS_WITH(parse_scenario("workload: {synthetic: mlp}\npolicy: {swap: {mode: async, prefetch: {budget: {cap: lots}}}}\n", "t.yaml"),
                      Catch::Contains("'lots' is not a size"));
}

TEST_CASE("without a budget the budget prefetch never lifts the peak above the run with reads on demand", "[shared]") {
    // MobilenetV2 batch 4, feature maps, os, async, every shipped disk: the default budget
    // prefetch reaches the on-demand run's peak and no more, at the compute time
    // (2,488.364 ms). The on-demand times are 5,069.5 (phone), 2,984.7 (Samsung), 2,656.8
    // (NVMe, its budget left out) and 2,512.0 ms (host RAM over PCIe 4).
    const Workload& w = mobilenet();
    const char* kPcie4 = "{bandwidth: 25GB/s, latency: 10us}";
    for (const char* disk : {kPhone, kSamsung, kNvme, kPcie4}) {
        INFO(disk);
        const std::string base = "{allocator: os, swap: {mode: async, select: feature_maps, prefetch: ";
        const Summary on_demand = run(w, disk, "", base + "{lead_ops: 0}}}");
        const Summary budget = run(w, disk, "", base + "budget}}");
        CHECK(budget.live_peak_bytes <= on_demand.live_peak_bytes);
        CHECK(budget.time_ms == Approx(w.compute_ms()).epsilon(1e-9));
    }
    // On host RAM the on-demand peak (91,081,508 B) comes in the backward pass, above the
    // peak the run has when its first reads could go: capped at the peak so far, as before,
    // the budget rule took 2,489.145 ms; capped at the on-demand peak, the compute time.
    const Summary pcie = run(w, kPcie4, "", "{allocator: os, swap: {mode: async, select: feature_maps}}");
    CHECK(pcie.live_peak_bytes == 91081508u);
    // Squeezenet batch 4 on the Samsung flash: 1,813.476 ms before, 1,804.252 ms now, same
    // peak (195,581,288 B, the on-demand run's).
    const Workload squeeze = load_mnn_profile(shared_profile("Squeezenet"), 4);
    const Summary sq = run(squeeze, kSamsung, "", "{allocator: os, swap: {mode: async, select: feature_maps}}");
    CHECK(sq.time_ms == Approx(1804.252).margin(1e-3));
    CHECK(sq.live_peak_bytes == 195581288u);
}

TEST_CASE("on the fast disks the hybrid swaps only, at the compute time, where dtr is out of memory", "[shared]") {
    // MobilenetV2 batch 4 at 20% (docs/swap.md, "Where swapping is cheap"): the hidden-swap
    // plan (135 feature maps) meets the budget alone on NVMe and host RAM; nothing is
    // recomputed and nothing evicted. dtr runs out of memory there.
    const Workload& w = mobilenet();
    const char* kPcie4 = "{bandwidth: 25GB/s, latency: 10us}";
    const Summary dtr = run(w, kNvme, ratio(0.2), "{allocator: os, recompute: {heuristic: dtr}}");
    CHECK(dtr.status == "oom");
    for (const char* disk : {kNvme, kPcie4}) {
        INFO(disk);
        const Summary hybrid = run(w, disk, ratio(0.2), "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}");
        const Summary swap = run(w, disk, ratio(0.2), "{allocator: os, swap: {mode: async, select: budget}}");
        CHECK(hybrid.status == "ok");
        CHECK(hybrid.time_ms == Approx(w.compute_ms()).epsilon(1e-9));
        CHECK(swap.time_ms == Approx(w.compute_ms()).epsilon(1e-9));
        CHECK(hybrid.swap_selected_tensors == 135);
        CHECK(hybrid.recomputed_ops == 0);
        CHECK(hybrid.evictions == 0);
    }
    // At 15% on host RAM the plan (164) needs 41 evictions; the per-eviction rule sends every
    // one to disk (the round trip is below each recompute cost): 2,494.4 ms, swap-only 2,489.9.
    const Summary tight = run(w, kPcie4, ratio(0.15), "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}");
    CHECK(tight.swap_selected_tensors == 164);
    CHECK(tight.evictions == 41);
    CHECK(tight.evictions_to_disk == 41);
    CHECK(tight.recomputed_ops == 0);
    CHECK(tight.time_ms == Approx(2494.4).margin(0.05));
}

TEST_CASE("at the tightest budgets the hybrid drops nothing it could not regenerate, and finishes", "[shared]") {
    // MobilenetV2 batch 4, os. Judged on time alone, the hybrid dropped tensors whose
    // regeneration needs more than the budget and ran out of memory at each point below
    // (as dtr does), where swap-only finishes. A drop whose depth-first regeneration cannot
    // fit in the budget is now swapped (models/swap/hybrid/swap_or_drop.h).
    const Workload& w = mobilenet();
    const std::string hybrid = "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}";
    const std::string swap = "{allocator: os, swap: {mode: async, select: budget}}";
    struct Point {
        const char* disk;
        double ratio, hybrid_ms, swap_ms;
    };
    // At 20% on the phone disk the mix is 6x faster than swap-only; on the Samsung flash
    // and NVMe swap-only stays faster (docs/swap.md, "Hybrid").
    for (const Point& p : {Point{kPhone, 0.2, 6713.626, 40261.561}, Point{kSamsung, 0.2, 3606.329, 3182.663},
                           Point{kNvme, 0.15, 2695.408, 2500.671}}) {
        INFO(p.disk << " " << p.ratio);
        CHECK(run(w, p.disk, ratio(p.ratio), "{allocator: os, recompute: {heuristic: dtr}}").status == "oom");
        const Summary h = run(w, p.disk, ratio(p.ratio), hybrid);
        CHECK(h.status == "ok");
        CHECK(h.time_ms == Approx(p.hybrid_ms).margin(1e-3));
        CHECK(h.details.at("hybrid_swapped") > 0);
        CHECK(h.details.at("hybrid_dropped") > 0);
        CHECK(h.peak_bytes <= *h.budget_bytes);
        CHECK(run(w, p.disk, ratio(p.ratio), swap).time_ms == Approx(p.swap_ms).margin(1e-3));
    }
}
