// Rule 6 of the published DTR runtime (docs/recompute.md, "DTR semantics") on the six
// shared logs: the engine (policy.semantics: dtr) requests, after the last op, exactly
// the list the log's parser recorded (names in first-binding order, one entry per name),
// and brings back as many tensors there as the reference runtime does with that list
// (tv_densenet121 at 0.2 and unroll_gan at 0.3 recompute there; the other cells find
// every requested tensor resident). The list's sizes against the engine's old derivation
// (tensors in no release list): docs/recompute.md, rule 6.
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string>

#include <fmt/format.h>

#include "dtr_reference_runtime.h"
#include "models/alloc/replay.h"
#include "models/workload/dtr_log.h"
#include "sim/engine/storage_book.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

// Recomputations the engine ran after the last op's compute: the end-of-log requests'.
int end_recomputations(const EventLog& log) {
    std::size_t last_compute = 0;
    for (std::size_t i = 0; i < log.activities.size(); ++i)
        if (log.activities[i].lane == lane::kCompute) last_compute = i;
    int n = 0;
    for (std::size_t i = last_compute + 1; i < log.activities.size(); ++i)
        if (log.activities[i].lane == lane::kRecompute) ++n;
    return n;
}

// requests: the list's entries (one per name); distinct: its tensors; end_recomputed: the
// end-of-log recomputations over the finished cells of ratios 0.1..1.0 (measured, pinned).
void check_log(const std::string& prefix, std::size_t requests, std::size_t distinct, int end_recomputed) {
    const DtrLog parsed = load_dtr_log_detailed(shared_dtr_log(prefix));
    const Workload& w = parsed.workload;
    REQUIRE(w.end_of_log_requests.has_value());
    const std::vector<TensorId>& list = *w.end_of_log_requests;
    CHECK(list.size() == requests);
    CHECK(std::set<TensorId>(list.begin(), list.end()).size() == distinct);
    // What the engine walks: the scenario path's workload, through the StorageBook.
    const Workload loaded = load_dtr_log(shared_dtr_log(prefix));
    CHECK(StorageBook(loaded).final_requests() == list);
    const std::uint64_t peak = dtr_log_baseline_peak(parsed);
    int end_total = 0;
    for (int k = 1; k <= 10; ++k) {
        const double ratio = k / 10.0;
        INFO(prefix << " at " << ratio);
        auto heuristic = make_eviction_heuristic("dtr", {});
        DtrRuntimeOptions options;
        options.budget_bytes = static_cast<std::uint64_t>(static_cast<double>(peak) * ratio);
        options.max_recompute_ms = w.compute_ms();
        options.final_requests = list;
        const DtrRuntimeResult ref = run_dtr_reference(w, *heuristic, options);
        if (ref.status != RecomputeStatus::Ok) continue;
        const Scenario s = parse_scenario(
            fmt::format("workload: {{synthetic: mlp}}\nplatform: {{memory: {{budget_ratio: {}}}}}\n"
                        "policy: {{allocator: os, semantics: dtr, recompute: {{heuristic: dtr, max_overhead: 1.0}}}}\n",
                        ratio),
            "test");
        const RunResult r = simulate(w, s);
        REQUIRE(r.summary.status == "ok");
        UNSCOPED_INFO(prefix << " at " << ratio << ": " << ref.end_recomputed_ops << " end-of-log recomputations");
        CHECK(end_recomputations(r.log) == ref.end_recomputed_ops);
        CHECK(static_cast<int>(r.summary.recomputed_ops) == ref.recomputed_ops);
        end_total += ref.end_recomputed_ops;
    }
    CHECK(end_total == end_recomputed);
}

}  // namespace

TEST_CASE("dtr end-of-log requests, inceptionv4", "[shared]") { check_log("inceptionv4-64", 3437, 1345, 0); }
TEST_CASE("dtr end-of-log requests, lstm", "[shared]") { check_log("lstm-128", 24, 12, 0); }
TEST_CASE("dtr end-of-log requests, transformer", "[shared]") { check_log("transformer-10", 1268, 512, 0); }
TEST_CASE("dtr end-of-log requests, treelstm", "[shared]") { check_log("treelstm-6", 24, 12, 0); }
TEST_CASE("dtr end-of-log requests, tv_densenet121", "[shared]") { check_log("tv_densenet121-84", 2787, 1091, 101); }
TEST_CASE("dtr end-of-log requests, unroll_gan", "[shared]") { check_log("unroll_gan-512", 36, 24, 17); }
