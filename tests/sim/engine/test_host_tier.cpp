// HostTier's end-of-run invariants (docs/tiers.md): per tier, bytes in = bytes out +
// bytes resident, resident as the tensors' copies say, and no bounce buffer left.
#include <catch2/catch.hpp>

#include "sim/engine/host_tier.h"
#include "sim/engine/run_result.h"

using namespace memsim;

namespace {

PlatformSpec node() {
    PlatformSpec spec;
    spec.host_link = LinkSpec{1e9, 0};
    spec.host_memory = 4096;
    return spec;
}

}  // namespace

TEST_CASE("host tier: balanced books pass the invariants") {
    HostTier tier(node());
    tier.tiers[kDiskTier].in = 300;
    tier.tiers[kDiskTier].out = 100;
    tier.tiers[kDiskTier].resident = 200;
    CHECK_NOTHROW(tier.check_invariants({0, 200}));
    CHECK(tier.free_bytes() == 4096);
    CHECK(tier.fits(4096));
    CHECK_FALSE(tier.fits(4097));
}

TEST_CASE("host tier: bytes lost or counted twice are an invariant error naming the tier") {
    HostTier tier(node());
    tier.tiers[kDiskTier].in = 300;
    tier.tiers[kDiskTier].out = 100;
    tier.tiers[kDiskTier].resident = 100;  // 100 B went nowhere
    CHECK_THROWS_WITH(tier.check_invariants({0, 100}), Catch::Contains("disk: 300 B in but 100 B out + 100 B resident"));
    HostTier other(node());
    other.tiers[kDiskTier].in = 300;
    other.tiers[kDiskTier].resident = 300;
    // The counters balance, but the tensors hold only 200 B there.
    CHECK_THROWS_WITH(other.check_invariants({0, 200}), Catch::Contains("disk: 300 B counted resident but its tensors hold 200 B"));
}

TEST_CASE("host tier: a bounce buffer left at the end is an invariant error") {
    HostTier tier(node());
    tier.staged_bytes = 10;
    CHECK_THROWS_WITH(tier.check_invariants({0, 0}), Catch::Contains("10 B of bounce buffers"));
}
