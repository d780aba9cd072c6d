// The node's SimGrid platform (sim/engine/platform.h, docs/tiers.md): flows on its PCIe links
// and switch uplinks take the times worked out by hand. Link: 1000 B/ms; X = 1000 B.
#include <catch2/catch.hpp>

#include <vector>

#include "sim/engine/platform.h"

using namespace memsim;
namespace sg = simgrid::s4u;

namespace {

PlatformSpec node(int gpus, int per_switch) {
    PlatformSpec spec;
    spec.gpus = gpus;
    spec.host_link = LinkSpec{1e6, 0.0};
    spec.gpus_per_switch = per_switch;
    spec.switch_bytes_per_s = per_switch > 0 ? 1e6 : 0;
    return spec;
}

// Runs one flow per (from, to) pair at time 0; returns each one's end in ms.
std::vector<double> flows(const SimPlatform& p, const std::vector<std::pair<sg::Host*, sg::Host*>>& pairs) {
    std::vector<double> ends(pairs.size(), -1);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        sg::Actor::create("flow", pairs[i].first, [&p, &ends, &pairs, i] {
            (void)p;
            sg::Comm::sendto(pairs[i].first, pairs[i].second, static_cast<std::uint64_t>(1000 * SimPlatform::kDiskScale));
            ends[i] = sg::Engine::get_clock() * 1e3;
        });
    sg::Engine::get_instance()->run();
    return ends;
}

}  // namespace

TEST_CASE("node platform: full duplex: a read and a write on one PCIe link do not slow each other") {
    const SimPlatform p = build_platform(node(1, 0));
    const std::vector<double> ends = flows(p, {{p.gpus[0], p.host}, {p.host, p.gpus[0]}});
    CHECK(ends[0] == Approx(1.0).epsilon(1e-12));  // X/B each, together
    CHECK(ends[1] == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("node platform: two writes through one switch uplink share it: 2X/B each") {
    const SimPlatform p = build_platform(node(2, 2));
    REQUIRE(p.switch_links.size() == 1);
    const std::vector<double> ends = flows(p, {{p.gpus[0], p.host}, {p.gpus[1], p.host}});
    CHECK(ends[0] == Approx(2.0).epsilon(1e-12));
    CHECK(ends[1] == Approx(2.0).epsilon(1e-12));
}

TEST_CASE("node platform: a write and a read of two GPUs through one uplink do not share it") {
    const SimPlatform p = build_platform(node(2, 2));
    const std::vector<double> ends = flows(p, {{p.gpus[0], p.host}, {p.host, p.gpus[1]}});
    CHECK(ends[0] == Approx(1.0).epsilon(1e-12));
    CHECK(ends[1] == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("node platform: GPUs on separate switches do not share") {
    const SimPlatform p = build_platform(node(2, 1));
    REQUIRE(p.switch_links.size() == 2);
    const std::vector<double> ends = flows(p, {{p.gpus[0], p.host}, {p.gpus[1], p.host}});
    CHECK(ends[0] == Approx(1.0).epsilon(1e-12));
    CHECK(ends[1] == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("node platform: three flows on one link take 3X/B each") {
    const SimPlatform p = build_platform(node(3, 3));
    const std::vector<double> ends = flows(p, {{p.gpus[0], p.host}, {p.gpus[1], p.host}, {p.gpus[2], p.host}});
    for (double end : ends) CHECK(end == Approx(3.0).epsilon(1e-12));
}
