// The published DTR simulator's h_DTR table on the six shared logs (../shared/dtr-logs/README.md):
// time overhead (clock / baseline compute) under budget = ratio x baseline peak, in
// `policy.semantics: dtr`, thrash at recomputation > compute. All 60 cells are checked
// exactly: the overhead to the table's four decimals, or the same OOM / thrash
// (docs/recompute.md, "The published h_DTR table"). The recomputation counts of the
// finished runs are pinned (deterministic).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "models/workload/dtr_log.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

struct Cell {
    double ratio;
    const char* published;     // overhead as published (4 decimals), "oom" or "thrash"
    std::uint64_t recomputed;  // memsim's count for a finished run, pinned
};

void check_log(const std::string& prefix, const std::vector<Cell>& cells) {
    const Workload w = load_dtr_log(shared_dtr_log(prefix));
    for (const Cell& c : cells) {
        INFO(prefix << " at " << c.ratio);
        const Scenario s = parse_scenario(
            fmt::format("workload: {{synthetic: mlp}}\nplatform: {{memory: {{budget_ratio: {}}}}}\n"
                        "policy: {{allocator: os, semantics: dtr, recompute: {{heuristic: dtr, max_overhead: 1.0}}}}\n",
                        c.ratio),
            "test");
        const RunResult r = simulate(w, s);
        const std::string published = c.published;
        if (published == "oom" || published == "thrash") {
            CHECK(r.summary.status == published);
            continue;
        }
        REQUIRE(r.summary.status == "ok");
        CHECK(fmt::format("{:.4f}", r.summary.time_ms / r.summary.compute_ms) == published);
        CHECK(r.summary.recomputed_ops == c.recomputed);
    }
}

}  // namespace

TEST_CASE("published DTR table, inceptionv4", "[shared]") {
    check_log("inceptionv4-64", {{0.1, "oom", 0}, {0.2, "thrash", 0}, {0.3, "1.2189", 258}, {0.4, "1.1306", 184},
                                 {0.5, "1.0919", 133}, {0.6, "1.0684", 86}, {0.7, "1.0498", 51}, {0.8, "1.0244", 24},
                                 {0.9, "1.0079", 8}, {1.0, "1.0007", 1}});
}

TEST_CASE("published DTR table, lstm", "[shared]") {
    check_log("lstm-128", {{0.1, "oom", 0}, {0.2, "1.5985", 2899}, {0.3, "1.3005", 1678}, {0.4, "1.1434", 1134},
                           {0.5, "1.0651", 953}, {0.6, "1.0417", 807}, {0.7, "1.0320", 675}, {0.8, "1.0276", 549},
                           {0.9, "1.0174", 330}, {1.0, "1.0000", 0}});
}

TEST_CASE("published DTR table, transformer", "[shared]") {
    check_log("transformer-10", {{0.1, "thrash", 0}, {0.2, "1.3517", 511}, {0.3, "1.1234", 116}, {0.4, "1.0832", 45},
                                 {0.5, "1.0584", 30}, {0.6, "1.0442", 24}, {0.7, "1.0314", 18}, {0.8, "1.0199", 12},
                                 {0.9, "1.0090", 6}, {1.0, "1.0015", 1}});
}

TEST_CASE("published DTR table, treelstm", "[shared]") {
    check_log("treelstm-6", {{0.1, "thrash", 0}, {0.2, "1.5295", 2503}, {0.3, "1.4014", 1902}, {0.4, "1.1733", 844},
                             {0.5, "1.1231", 608}, {0.6, "1.0754", 387}, {0.7, "1.0341", 193}, {0.8, "1.0132", 84},
                             {0.9, "1.0077", 49}, {1.0, "1.0000", 0}});
}

TEST_CASE("published DTR table, tv_densenet121", "[shared]") {
    check_log("tv_densenet121-84", {{0.1, "oom", 0}, {0.2, "1.6794", 552}, {0.3, "1.4465", 307}, {0.4, "1.2714", 202},
                                    {0.5, "1.1763", 117}, {0.6, "1.1414", 79}, {0.7, "1.1036", 45}, {0.8, "1.0638", 29},
                                    {0.9, "1.0258", 9}, {1.0, "1.0023", 1}});
}

TEST_CASE("published DTR table, unroll_gan", "[shared]") {
    check_log("unroll_gan-512", {{0.1, "oom", 0}, {0.2, "thrash", 0}, {0.3, "1.2056", 853}, {0.4, "1.0794", 252},
                                 {0.5, "1.0666", 201}, {0.6, "1.0564", 161}, {0.7, "1.0440", 128}, {0.8, "1.0246", 59},
                                 {0.9, "1.0108", 32}, {1.0, "1.0016", 8}});
}
