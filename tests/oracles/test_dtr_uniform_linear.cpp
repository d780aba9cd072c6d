// The DTR paper's uniform linear table (dtr-logs/README.md), reproduced exactly by the
// reference runtime with every heuristic.
#include <catch2/catch.hpp>

#include "models/recompute/dtr_reference_runtime.h"
#include "models/workload/synthetic.h"

using namespace memsim;

namespace {

int recomputed(int n, std::uint64_t budget, const std::string& heuristic_name) {
    const Workload w = make_uniform_linear(n);
    auto heuristic = make_eviction_heuristic(heuristic_name, {});
    DtrRuntimeOptions options;
    options.budget_bytes = budget;
    const DtrRuntimeResult r = run_dtr_reference(w, *heuristic, options);
    REQUIRE(r.status == RecomputeStatus::Ok);
    return r.recomputed_ops;
}

struct TableRow {
    int n;
    std::uint64_t budget;
    int dtr, dtr_eq, dtr_local, msps, lru, size;
};

// Copied from the published table (numbers, not data files).
const TableRow kTable[] = {
    {16, 8, 8, 8, 11, 9, 11, 44},          {16, 4, 57, 57, 67, 29, 67, 90},
    {64, 16, 49, 49, 161, 60, 161, 1224},  {64, 8, 102, 102, 598, 104, 598, 1652},
    {64, 32, 32, 32, 35, 33, 35, 560},     {100, 10, 159, 159, 1255, 162, 1255, 4185},
    {256, 16, 400, 400, 6984, 428, 6984, 29160},
};

}  // namespace

TEST_CASE("uniform linear table: every row and heuristic") {
    for (const TableRow& row : kTable) {
        INFO("n=" << row.n << " budget=" << row.budget);
        CHECK(recomputed(row.n, row.budget, "dtr") == row.dtr);
        CHECK(recomputed(row.n, row.budget, "dtr_eq") == row.dtr_eq);
        CHECK(recomputed(row.n, row.budget, "dtr_local") == row.dtr_local);
        CHECK(recomputed(row.n, row.budget, "msps") == row.msps);
        CHECK(recomputed(row.n, row.budget, "lru") == row.lru);
        CHECK(recomputed(row.n, row.budget, "size") == row.size);
    }
}
