// The published DTR simulator's h_DTR table (../shared/dtr-logs/README.md), all 60 cells,
// from the reference runtime: budget = int(baseline peak x ratio), thrash once the
// recomputation exceeds the baseline compute, cell = clock / baseline compute with the
// clock starting at 1 ns, to four decimals.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "dtr_reference_runtime.h"
#include "models/alloc/replay.h"
#include "models/workload/dtr_log.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

struct PublishedLog {
    const char* prefix;
    std::array<const char*, 10> cells;  // ratio 0.1 .. 1.0
};

// Transcribed from the README's h_DTR table.
const std::array<PublishedLog, 6> kPublished{{
    {"inceptionv4-64", {"OOM", "thrash", "1.2189", "1.1306", "1.0919", "1.0684", "1.0498", "1.0244", "1.0079", "1.0007"}},
    {"lstm-128", {"OOM", "1.5985", "1.3005", "1.1434", "1.0651", "1.0417", "1.0320", "1.0276", "1.0174", "1.0000"}},
    {"transformer-10", {"thrash", "1.3517", "1.1234", "1.0832", "1.0584", "1.0442", "1.0314", "1.0199", "1.0090", "1.0015"}},
    {"treelstm-6", {"thrash", "1.5295", "1.4014", "1.1733", "1.1231", "1.0754", "1.0341", "1.0132", "1.0077", "1.0000"}},
    {"tv_densenet121-84", {"OOM", "1.6794", "1.4465", "1.2714", "1.1763", "1.1414", "1.1036", "1.0638", "1.0258", "1.0023"}},
    {"unroll_gan-512", {"OOM", "thrash", "1.2056", "1.0794", "1.0666", "1.0564", "1.0440", "1.0246", "1.0108", "1.0016"}},
}};

std::string cell(const DtrRuntimeResult& r, double compute_ms) {
    if (r.status == RecomputeStatus::OutOfMemory) return "OOM";
    if (r.status == RecomputeStatus::Thrash) return "thrash";
    return fmt::format("{:.4f}", (r.clock_ms + 1e-6) / compute_ms);
}

void check_log(const PublishedLog& log) {
    const DtrLog parsed = load_dtr_log_detailed(shared_dtr_log(log.prefix));
    const Workload& w = parsed.workload;
    const std::uint64_t peak = dtr_log_baseline_peak(parsed);
    const double compute = w.compute_ms();
    for (int k = 0; k < 10; ++k) {
        const double ratio = (k + 1) / 10.0;
        auto heuristic = make_eviction_heuristic("dtr", {});
        DtrRuntimeOptions options;
        options.budget_bytes = static_cast<std::uint64_t>(static_cast<double>(peak) * ratio);
        options.max_recompute_ms = compute;
        options.final_requests = *w.end_of_log_requests;
        const DtrRuntimeResult r = run_dtr_reference(w, *heuristic, options);
        INFO(log.prefix << " at " << ratio << ": " << r.recomputed_ops << " recomputed, " << r.message);
        CHECK(cell(r, compute) == log.cells[static_cast<std::size_t>(k)]);
    }
}

}  // namespace

TEST_CASE("shared: reference runtime, published DTR table, inceptionv4", "[shared]") { check_log(kPublished[0]); }
TEST_CASE("shared: reference runtime, published DTR table, lstm", "[shared]") { check_log(kPublished[1]); }
TEST_CASE("shared: reference runtime, published DTR table, transformer", "[shared]") { check_log(kPublished[2]); }
TEST_CASE("shared: reference runtime, published DTR table, treelstm", "[shared]") { check_log(kPublished[3]); }
TEST_CASE("shared: reference runtime, published DTR table, tv_densenet121", "[shared]") { check_log(kPublished[4]); }
TEST_CASE("shared: reference runtime, published DTR table, unroll_gan", "[shared]") { check_log(kPublished[5]); }
