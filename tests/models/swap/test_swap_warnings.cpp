// swap_warnings (models/swap/swap_warnings.h): each warning when, and only when, its
// condition holds, with the numbers it quotes worked out by hand.
#include <catch2/catch.hpp>

#include "models/swap/swap_warnings.h"

using namespace memsim;

namespace {

// Async, 100 B/ms both ways, 2 tensors of 1000 B selected; compute 50 ms. Serial (sync)
// cost: 50 + 10 + 10 + 10 + 10 = 90 ms.
SwapWarningInputs async_run() {
    SwapWarningInputs in;
    in.swaps = in.async = true;
    in.disk.read_bytes_per_s = in.disk.write_bytes_per_s = 100000;
    in.no_swap_live_peak_bytes = 5000;
    in.live_peak_bytes = 4000;
    in.swapped_tensors = 2;
    in.selected_bytes = 2000;
    in.bytes_written = 2000;
    in.compute_ms = 50;
    in.time_ms = 60;
    return in;
}

}  // namespace

TEST_CASE("swap warnings: a healthy async run has none") { CHECK(swap_warnings(async_run()).empty()); }

TEST_CASE("swap warnings: no memory saved, cancelled writes, slower than the serial schedule") {
    SwapWarningInputs in = async_run();
    in.live_peak_bytes = 5000;
    in.cancelled_writes = 1;
    in.time_ms = 90.5;
    const auto w = swap_warnings(in);
    REQUIRE(w.size() == 3);
    CHECK(w[0] == "swapping saved no memory: live peak 5000 B, no-swap live peak 5000 B");
    CHECK(w[1] == "1 of 2 swap-outs were cancelled: their tensors were needed before the disk wrote them");
    CHECK(w[2] == "async is slower than sync would be: 90.500 ms, against 90.000 ms for compute plus every planned "
                  "write and read one after another");
    in.time_ms = 90.0;  // equal is not slower
    CHECK(swap_warnings(in).size() == 2);
    in.evictions = 1;   // on-demand swaps: the serial estimate no longer bounds sync
    in.time_ms = 500;
    CHECK(swap_warnings(in).size() == 2);
}

TEST_CASE("swap warnings: per-transfer latency counts in the serial schedule") {
    SwapWarningInputs in = async_run();
    in.disk.read_latency_ms = 1;
    in.disk.write_latency_ms = 2;  // 90 + 2 x (1 + 2) = 96 ms
    in.time_ms = 95;
    CHECK(swap_warnings(in).empty());
    in.time_ms = 96.25;
    REQUIRE(swap_warnings(in).size() == 1);
    CHECK_THAT(swap_warnings(in)[0], Catch::Contains("96.250 ms, against 96.000 ms"));
}
