// Every swap policy (sync, semi_sync and async with the budget selection, the hybrid) in
// both semantics at 70% of a log's no-policy peak, each run's events checked by
// check_storage_reads (storage_checks.h): the storages-and-views tests on real logs.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/workload/dtr_log.h"
#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "storage_checks.h"

namespace memsim::test {

// Returns how many storages were swapped out, freed and read again, over every run.
inline int check_every_swap_policy(const std::string& path) {
    const std::vector<std::string> policies = {
        "{allocator: os, semantics: SEM, swap: {mode: sync, select: budget}}",
        "{allocator: os, semantics: SEM, swap: {mode: semi_sync, select: budget}}",
        "{allocator: os, semantics: SEM, swap: {mode: async, select: budget}}",
        "{allocator: os, semantics: SEM, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}",
    };
    int swapped_and_read = 0;
    const Workload w = load_dtr_log(path);
    for (const std::string semantics : {"simulated", "dtr"})
        for (std::string policy : policies) {
            policy.replace(policy.find("SEM"), 3, semantics);
            INFO(path << " " << policy);
            const Scenario s = parse_scenario("workload: {synthetic: mlp}\n"
                                              "platform: {disk: {bandwidth: 3.2GB/s}, memory: {budget_ratio: 0.7}}\n"
                                              "policy: " + policy + "\n",
                                              "test");
            const RunResult r = simulate(w, s);
            CHECK(r.summary.status != "error");
            swapped_and_read += check_storage_reads(w, r).swapped_and_read;
        }
    return swapped_and_read;
}

}  // namespace memsim::test
