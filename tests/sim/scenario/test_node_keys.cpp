// The platform keys of the node model (docs/tiers.md): read with units, checked with
// their ranges, and refused with the key and the value when they cannot describe a node.
#include <catch2/catch.hpp>

#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

namespace {

const char* kNodeBase = R"(
name: t
workload: {synthetic: mlp}
platform:
  disk: {bandwidth: 23.4MB/s}
)";

std::string node_error_of(const std::vector<std::string>& sets) {
    try {
        (void)parse_scenario(kNodeBase, "t.yaml", sets);
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("no InputError thrown");
    return {};
}

}  // namespace

TEST_CASE("node keys: defaults keep one GPU swapping straight to its disk") {
    const Scenario s = parse_scenario(kNodeBase, "t.yaml");
    CHECK(s.platform.gpus == 1);
    CHECK_FALSE(s.platform.host_link);
    CHECK_FALSE(s.platform.host_memory);
    CHECK_FALSE(s.platform.has_host_tier());
    CHECK(s.platform.disk_count() == 1);
    CHECK(s.policy.swap.placement == "disk");
    CHECK(s.policy.swap.path == "bounce");
}

TEST_CASE("node keys: every key read with its units") {
    const Scenario s = parse_scenario(
        kNodeBase, "t.yaml",
        {"platform.gpus=4", "platform.host.memory=2GiB", "platform.host.link.bandwidth=25GB/s", "platform.host.link.latency=2us",
         "platform.gpus_per_switch=2", "platform.switch.bandwidth=32GB/s", "platform.gpu_offset_ms=3ms"});
    CHECK(s.platform.gpus == 4);
    CHECK(*s.platform.host_memory == 2ull * 1024 * 1024 * 1024);
    CHECK(s.platform.host_link->bytes_per_s == 25e9);
    CHECK(s.platform.host_link->latency_ms == Approx(0.002));
    CHECK(s.platform.gpus_per_switch == 2);
    CHECK(s.platform.switch_bytes_per_s == 32e9);
    CHECK(s.platform.gpu_offset_ms == 3.0);
    const Scenario d = parse_scenario(R"(
name: t
workload: {synthetic: mlp}
platform:
  host: {link: {bandwidth: 25GB/s}}
  disks: [{bandwidth: 3GB/s}, {read_bandwidth: 7GB/s, write_bandwidth: 5GB/s, latency: 80us}]
policy: {swap: {placement: {lifetime: {split: 20ms}}, path: direct}}
)",
                                      "t.yaml");
    REQUIRE(d.platform.disks.size() == 2);
    CHECK(d.platform.disk.read_bytes_per_s == 3e9);
    const TierSpec disks = d.platform.tiers()[kDiskTier];  // GPU g uses device g mod 2
    CHECK(disks.device_of(1).write_bytes_per_s == 5e9);
    CHECK(disks.device_of(1).read_latency_ms == Approx(0.08));
    CHECK(disks.device_of(2).read_bytes_per_s == 3e9);
    CHECK(d.policy.swap.placement == "lifetime");
    CHECK(std::get<double>(d.policy.swap.placement_params.at("split")) == 20.0);
    CHECK(d.policy.swap.path == "direct");
}

TEST_CASE("node keys: bad values name the key, the value and the limit") {
    CHECK_THAT(node_error_of({"platform.gpus=0"}), Catch::Contains("platform.gpus: 0 is out of range [1, 64]"));
    CHECK_THAT(node_error_of({"platform.gpus=100000", "platform.host.link.bandwidth=1GB/s"}),
               Catch::Contains("platform.gpus: 100000 is out of range [1, 64]"));
    CHECK_THAT(node_error_of({"platform.gpus=2"}), Catch::Contains("platform.gpus: needs platform.host.link"));
    CHECK_THAT(node_error_of({"platform.host.memory=1GB"}), Catch::Contains("platform.host.memory: needs platform.host.link"));
    CHECK_THAT(node_error_of({"platform.host.link.latency=1us"}), Catch::Contains("platform.host.link: missing bandwidth"));
    CHECK_THAT(node_error_of({"platform.host.link.bandwidth=fast"}), Catch::Contains("platform.host.link.bandwidth: 'fast'"));
    CHECK_THAT(node_error_of({"platform.host.link.bandwidth=1e20B/s"}),
               Catch::Contains("platform.host.link.bandwidth: '1e20B/s' = 1e+20 B/s is out of range [1, 1e+15] B/s"));
    CHECK_THAT(node_error_of({"platform.host.memory=lots", "platform.host.link.bandwidth=1GB/s"}),
               Catch::Contains("platform.host.memory"));
    CHECK_THAT(node_error_of({"platform.gpus_per_switch=2", "platform.host.link.bandwidth=1GB/s"}),
               Catch::Contains("give platform.gpus_per_switch and platform.switch.bandwidth together"));
    CHECK_THAT(node_error_of({"platform.host.link.bandwidth=1GB/s", "platform.disks=[{bandwidth: 1GB/s}]"}),
               Catch::Contains("platform.disks: give either platform.disk (one disk) or platform.disks (a list), not both"));
    try {
        (void)parse_scenario("name: t\nworkload: {synthetic: mlp}\nplatform: {host: {link: {bandwidth: 1GB/s}}, disks: []}\n",
                             "t.yaml");
        FAIL("no InputError thrown");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("platform.disks: must be a non-empty list of disks"));
    }
    CHECK_THAT(node_error_of({"platform.host.link.bandwidth=1GB/s", "platform.disks=[{bandwith: 1GB/s}]"}),
               Catch::Contains("platform.disks[0].bandwith: unknown key 'bandwith' (did you mean 'bandwidth'?)"));
    CHECK_THAT(node_error_of({"policy.swap.placement=hots"}), Catch::Contains("unknown value 'hots'"));
    CHECK_THAT(node_error_of({"policy.swap.placement.lifetime.split=-1ms"}), Catch::Contains("policy.swap.placement"));
}

TEST_CASE("node keys: a placement that uses host RAM needs the host link") {
    const Scenario s = parse_scenario(kNodeBase, "t.yaml", {"policy.swap.placement=host"});
    try {
        validate_policy(s);
        FAIL("no InputError thrown");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("policy.swap.placement: 'host' puts tensors in host RAM: it needs platform.host.link"));
    }
}
