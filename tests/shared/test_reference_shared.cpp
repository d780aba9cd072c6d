// The peer reference numbers (../shared/reference/peer_reference.csv) on both shared
// profiles, for every batch with costs: static peaks, and the three swap modes run by
// the SimGrid engine in reference semantics.
#include <catch2/catch.hpp>

#include <map>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/workload/forward_end.h"
#include "models/workload/mnn_profile.h"
#include "models/alloc/replay.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

void check_static(const std::string& model) {
    for (int batch = 2; batch <= 16; ++batch) {
        INFO(model << " batch " << batch);
        const auto ref = peer_reference(model, batch);
        const Workload w = load_mnn_profile(shared_profile(model), batch);
        OsAllocator os;
        PoolAllocator pool;
        CHECK(replay_peak(w, os) == static_cast<std::uint64_t>(ref.at("oracle_peak_bytes")));
        CHECK(replay_peak(w, pool) == static_cast<std::uint64_t>(ref.at("pool_peak_bytes")));
        CHECK(w.compute_ms() == Approx(ref.at("compute_ms")).epsilon(1e-9));
    }
}

void check_modes(const std::string& model, int first_batch, int last_batch) {
    const std::map<std::string, std::string> metric = {{"sync", "sync"}, {"semi_sync", "semisync"}, {"async", "async"}};
    for (int batch = first_batch; batch <= last_batch; ++batch) {
        const auto ref = peer_reference(model, batch);
        const Workload w = load_mnn_profile(shared_profile(model), batch);
        for (const auto& [mode, name] : metric) {
            INFO(model << " batch " << batch << " mode " << mode);
            const Scenario s = parse_scenario(
                "workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 104094472B/4452ms}}\n"
                "policy: {allocator: pool, semantics: reference, swap: {mode: " + mode + "}}\n",
                "test");
            const RunResult r = simulate(w, s);
            CHECK(r.summary.status == "ok");
            CHECK(r.summary.peak_bytes == static_cast<std::uint64_t>(ref.at(name + "_peak_bytes")));
            CHECK(r.summary.time_ms == Approx(ref.at(name + "_time_ms")).epsilon(1e-6));
        }
    }
}

}  // namespace

TEST_CASE("MobilenetV2 oracle pool and compute for batches 2-16", "[shared]") { check_static("MobilenetV2"); }
TEST_CASE("Squeezenet oracle pool and compute for batches 2-16", "[shared]") { check_static("Squeezenet"); }

TEST_CASE("forward_end inferred as in the reference", "[shared]") {
    CHECK(load_mnn_profile(shared_profile("MobilenetV2"), 4).forward_end == 1438);
    CHECK(load_mnn_profile(shared_profile("Squeezenet"), 4).forward_end == 119);
}

TEST_CASE("MobilenetV2 reference swap modes for batches 2-6", "[shared]") { check_modes("MobilenetV2", 2, 6); }
TEST_CASE("MobilenetV2 reference swap modes for batches 7-11", "[shared]") { check_modes("MobilenetV2", 7, 11); }
TEST_CASE("MobilenetV2 reference swap modes for batches 12-16", "[shared]") { check_modes("MobilenetV2", 12, 16); }
TEST_CASE("Squeezenet reference swap modes for batches 2-16", "[shared]") { check_modes("Squeezenet", 2, 16); }
