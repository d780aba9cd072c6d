// Properties of swapping on the real profiles (../shared/profiles), simulated semantics.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/alloc/os_allocator.h"
#include "models/workload/mnn_profile.h"
#include "models/alloc/replay.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

Summary run(const Workload& w, const std::string& policy, const std::string& platform = "disk: {bandwidth: 104094472B/4.452s}") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {" + platform + "}\npolicy: " + policy + "\n", "test");
    return simulate(w, s).summary;
}

}  // namespace

TEST_CASE("swapping never beats compute and sync pays for every byte on the disk", "[shared]") {
    for (const std::string model : {"MobilenetV2", "Squeezenet"}) {
        const Workload w = load_mnn_profile(shared_profile(model), 4);
        const double bytes_per_ms = 104094472.0 / 4452.0;
        for (const std::string mode : {"sync", "semi_sync", "async"}) {
            INFO(model << " " << mode);
            const Summary s = run(w, "{allocator: os, swap: {mode: " + mode + "}}");
            REQUIRE(s.status == "ok");
            CHECK(s.time_ms >= s.compute_ms * (1 - 1e-12));  // the clock and compute_ms sum in different orders
            CHECK(s.time_ms == Approx(s.compute_ms + s.stall_ms).epsilon(1e-9));
            const double io_ms = static_cast<double>(s.bytes_written + s.bytes_read) / bytes_per_ms;
            if (mode == "sync") {
                // Every feature map goes out and comes back, and nothing overlaps compute.
                CHECK(s.bytes_written == feature_map_bytes(w));
                CHECK(s.time_ms >= io_ms);
                CHECK(s.time_ms == Approx(s.compute_ms + io_ms).epsilon(1e-6));
            }
            CHECK(s.time_ms >= io_ms * (mode == "async" ? 0.0 : 1.0));
        }
    }
}

TEST_CASE("budget selection keeps the peak under the budget (os)", "[shared]") {
    const Workload w = load_mnn_profile(shared_profile("MobilenetV2"), 4);
    OsAllocator os;
    const std::uint64_t no_swap_peak = replay_peak(w, os);
    for (const double ratio : {0.6, 0.8, 0.95}) {
        const auto budget = static_cast<std::uint64_t>(ratio * static_cast<double>(no_swap_peak));
        INFO("budget " << budget);
        const Summary s = run(w, "{allocator: os, swap: {mode: async, select: budget, prefetch: just_in_time}}",
                              "disk: {bandwidth: 104094472B/4.452s}, memory: {budget: " + std::to_string(budget) + "B}");
        REQUIRE(s.status == "ok");
        CHECK(s.peak_bytes <= budget);
        CHECK(s.bytes_written > 0);
        CHECK(s.time_ms >= s.compute_ms);
    }
}

TEST_CASE("more disk bandwidth never makes sync or semi_sync slower", "[shared]") {
    for (const std::string model : {"MobilenetV2", "Squeezenet"}) {
        const Workload w = load_mnn_profile(shared_profile(model), 4);
        for (const std::string mode : {"sync", "semi_sync"}) {
            double previous = 1e300;
            for (const std::string bw : {"5MB/s", "10MB/s", "20MB/s", "23.4MB/s", "50MB/s", "100MB/s", "1GB/s", "10GB/s"}) {
                INFO(model << " " << mode << " " << bw);
                const Summary s = run(w, "{allocator: os, swap: {mode: " + mode + "}}", "disk: {bandwidth: " + bw + "}");
                REQUIRE(s.status == "ok");
                CHECK(s.time_ms <= previous * (1 + 1e-12));
                previous = s.time_ms;
            }
        }
    }
}

// In async mode a feature map needed while its write is still pending is used in place
// (the write is dropped or frees nothing), so a slow disk swaps out less and reads back
// less; a faster disk frees more memory and then pays for reads queued behind writes.
// Time is therefore monotone in bandwidth only among disks fast enough that the set of
// tensors used in place no longer changes (docs/swap.md, "A faster disk can be slower").
TEST_CASE("once writes keep up, more bandwidth never makes async slower", "[shared]") {
    const std::vector<std::string> bandwidths = {"5MB/s", "23.4MB/s", "100MB/s", "500MB/s", "1GB/s",
                                                 "2GB/s", "5GB/s",  "10GB/s",   "100GB/s"};
    for (const std::string model : {"MobilenetV2", "Squeezenet"}) {
        const Workload w = load_mnn_profile(shared_profile(model), 4);
        for (const std::string prefetch : {"eager", "just_in_time", "{lead_ops: 10}"}) {
            auto at = [&](const std::string& bw) {
                return run(w, "{allocator: os, swap: {mode: async, prefetch: " + prefetch + "}}", "disk: {bandwidth: " + bw + "}");
            };
            const double settled = at(bandwidths.back()).swap_writes_cancelled;
            double previous = 1e300;
            int points = 0;
            for (const std::string& bw : bandwidths) {
                INFO(model << " " << prefetch << " " << bw);
                const Summary s = at(bw);
                REQUIRE(s.status == "ok");
                if (s.swap_writes_cancelled != settled) continue;
                CHECK(s.time_ms <= previous * (1 + 1e-12));
                previous = s.time_ms;
                ++points;
            }
            INFO(model << " " << prefetch);
            CHECK(points >= 3);
            // At 100 GB/s the transfers hide behind compute.
            CHECK(previous == Approx(w.compute_ms()).epsilon(1e-3));
        }
    }
}

TEST_CASE("a faster disk can make async slower (the in-place anomaly)", "[shared]") {
    // Squeezenet batch 4, eager prefetch: at 15 MB/s every write is still pending when its
    // tensor is needed (used in place, nothing read); at 20 MB/s one write completes, its
    // tensor is freed and must be read back behind the writes still queued.
    const Workload w = load_mnn_profile(shared_profile("Squeezenet"), 4);
    const Summary slow = run(w, "{allocator: os, swap: {mode: async}}", "disk: {bandwidth: 15MB/s}");
    const Summary fast = run(w, "{allocator: os, swap: {mode: async}}", "disk: {bandwidth: 20MB/s}");
    CHECK(slow.bytes_read == 0);
    CHECK(fast.bytes_read > 0);
    CHECK(fast.time_ms > slow.time_ms);
}
