// What every `memsim compare` candidate keeps of the scenario's policy (docs/compare.md).
#include <catch2/catch.hpp>

#include "sim/app/compare/policy_candidates.h"

using namespace memsim;

TEST_CASE("compare: every candidate keeps the scenario's data-parallel settings") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\n"
                                      "platform: {gpus: 4, host: {link: {bandwidth: 25GB/s}}, memory: {budget_ratio: 0.8}}\n"
                                      "policy: {data_parallel: {zero: 2, bucket: 5MiB}, swap: {placement: host}}\n",
                                      "test");
    const std::vector<PolicyCandidate> candidates = policy_candidates(s, {});
    REQUIRE(candidates.size() > 4);
    for (const PolicyCandidate& c : candidates) {
        INFO(c.label << ": " << flow_yaml(c.policy));
        REQUIRE(c.policy["data_parallel"]);
        CHECK(c.policy["data_parallel"]["zero"].as<int>() == 2);
        CHECK(c.policy["data_parallel"]["bucket"].as<std::string>() == "5MiB");
    }
}
