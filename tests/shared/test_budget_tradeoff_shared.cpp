// The budget trade-off on MobilenetV2 batch 4 (docs/recompute.md): dtr at 40..100% of the
// no-swap peak, the hybrid on the phone's flash (always drops: the same run as dtr), swap
// only within the budget, and every heuristic at 60%.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "sim/app/run/workload_factory.h"

using namespace memsim;

namespace {

RunResult run_mnv2(double ratio, const std::string& policy) {
    const std::string yaml = fmt::format(
        "workload: {{profile: {}/profiles/MobilenetV2, batch: 4}}\nplatform: {{memory: {{budget_ratio: {}}}}}\n"
        "policy: {}\n",
        MEMSIM_SHARED_DIR, ratio, policy);
    const Scenario s = parse_scenario(yaml, "test");
    const Workload w = load_workload(s);
    return simulate(w, s);
}

}  // namespace

TEST_CASE("budget trade-off on MobilenetV2 batch 4 (dtr and hybrid and swap only)", "[shared]") {
    struct Point {
        double ratio;
        std::uint64_t budget;
        std::uint64_t dtr_recomputed;
        double dtr_time_ms;
    };
    const Point points[] = {{0.4, 233924980, 398, 2908.414}, {0.5, 292406226, 307, 2853.713},
                            {0.6, 350887471, 247, 2812.176}, {0.7, 409368716, 181, 2756.310},
                            {0.8, 467849961, 110, 2670.050}, {0.9, 526331206, 68, 2572.931},
                            {1.0, 584812452, 0, 2488.364}};
    std::uint64_t previous = ~0ull;
    for (const Point& p : points) {
        INFO("ratio " << p.ratio);
        const RunResult dtr = run_mnv2(p.ratio, "{allocator: os, recompute: {heuristic: dtr}}");
        CHECK(dtr.summary.status == "ok");
        CHECK(dtr.summary.budget_bytes == p.budget);
        CHECK(dtr.summary.peak_bytes <= p.budget);
        CHECK(dtr.summary.recomputed_ops == p.dtr_recomputed);
        CHECK(dtr.summary.time_ms == Approx(p.dtr_time_ms).margin(1e-3));
        CHECK(dtr.summary.recomputed_ops <= previous);  // more memory, never more recomputation
        previous = dtr.summary.recomputed_ops;
        const RunResult hybrid = run_mnv2(p.ratio, "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}");
        CHECK(hybrid.summary.status == "ok");
        CHECK(hybrid.summary.bytes_written == 0);
        CHECK(hybrid.summary.recomputed_ops == p.dtr_recomputed);
        CHECK(hybrid.summary.time_ms == Approx(dtr.summary.time_ms));
        const RunResult swap = run_mnv2(p.ratio, "{allocator: os, swap: {mode: async, select: budget}}");
        CHECK(swap.summary.status == "ok");
        CHECK(swap.summary.peak_bytes <= p.budget);
        CHECK(swap.summary.recomputed_ops == 0);
        CHECK(swap.summary.time_ms >= dtr.summary.time_ms);  // 23.4 MB/s flash: swapping loses
    }
}

TEST_CASE("every heuristic on MobilenetV2 batch 4 at 60% of the no-swap peak", "[shared]") {
    const std::pair<const char*, std::uint64_t> expected[] = {{"dtr", 247}, {"dtr_eq", 247}, {"dtr_local", 197},
                                                              {"msps", 203}, {"lru", 204},    {"size", 135},
                                                              {"random", 604}, {"megengine", 247}};
    for (const auto& [h, count] : expected) {
        INFO(h);
        const RunResult r = run_mnv2(0.6, fmt::format("{{allocator: os, recompute: {{heuristic: {}, seed: 1}}}}", h));
        CHECK(r.summary.status == "ok");
        CHECK(r.summary.peak_bytes <= 350887471u);
        CHECK(r.summary.recomputed_ops == count);
    }
}
