// One solve of the optimal planner on a synthetic workload, for scripts/bench_optimal.sh:
//   optimal_solve KIND N RATIO METHOD [TIME_LIMIT_S]
// KIND chain | branching | uniform_linear; RATIO the budget as a fraction of the plan-free
// peak; METHOD dp (the chain's dynamic program), milp (the integer program) or lp (its
// relaxation and rounding). Prints one line: the size (program_columns: of the integer
// program, built or not), what was proven, and the solver's CPU seconds.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "models/recompute/optimal/chain_dp.h"
#include "models/recompute/optimal/optimal_planner.h"
#include "models/recompute/optimal/remat_milp.h"
#include "models/workload/synthetic.h"

using namespace memsim;
using namespace memsim::optimal;

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s KIND N RATIO dp|milp|lp [TIME_LIMIT_S]\n", argv[0]);
        return 1;
    }
    const std::string kind = argv[1], method = argv[4];
    const int n = std::atoi(argv[2]);
    const double ratio = std::atof(argv[3]);
    const Workload w = make_synthetic(kind, {{"n", n}});
    const RematProblem unlimited = make_problem(w, ~0ull);
    const std::uint64_t peak = check_schedule(unlimited, empty_schedule(unlimited)).peak_bytes;
    const auto budget = static_cast<std::uint64_t>(std::floor(static_cast<double>(peak) * ratio));
    OptimalOptions options;
    options.time_limit_s = argc > 5 ? std::atof(argv[5]) : 60.0;
    options.max_dp_work = ~std::size_t{0};
    options.use_chain_dp = method == "dp";
    options.use_milp = method != "dp";
    options.max_milp_columns = method == "milp" ? ~std::size_t{0} : 0;
    options.max_lp_columns = ~std::size_t{0};
    const OptimalResult r = solve_optimal(w, budget, options);
    const RematProblem p = make_problem(w, budget);
    std::printf("%-15s n=%-6d ops=%-6zu budget=%-12llu method=%-25s program_columns=%-8zu status=%-24s time_ms=%.3f "
                "bound_ms=%.3f cpu_s=%.3f\n",
                kind.c_str(), n, w.ops.size(), static_cast<unsigned long long>(budget), r.method.c_str(),
                r.columns ? r.columns : estimated_columns(p), status_text(r).c_str(), r.time_ms, r.bound_ms, r.solve_seconds);
    return 0;
}
