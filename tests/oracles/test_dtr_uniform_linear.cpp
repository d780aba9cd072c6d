// The DTR paper's uniform linear table (tests/support/uniform_linear_table.h), reproduced exactly by the
// reference runtime with every heuristic.
#include <catch2/catch.hpp>

#include "dtr_reference_runtime.h"
#include "models/workload/synthetic.h"
#include "uniform_linear_table.h"

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

}  // namespace

TEST_CASE("uniform linear table: every row and heuristic") {
    for (const test::UniformLinearRow& row : test::kUniformLinearTable) {
        INFO("n=" << row.n << " budget=" << row.budget);
        CHECK(recomputed(row.n, row.budget, "dtr") == row.dtr);
        CHECK(recomputed(row.n, row.budget, "dtr_eq") == row.dtr_eq);
        CHECK(recomputed(row.n, row.budget, "dtr_local") == row.dtr_local);
        CHECK(recomputed(row.n, row.budget, "msps") == row.msps);
        CHECK(recomputed(row.n, row.budget, "lru") == row.lru);
        CHECK(recomputed(row.n, row.budget, "size") == row.size);
    }
}
