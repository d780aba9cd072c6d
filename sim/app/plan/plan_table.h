// memsim plan's answers, apart from how the command prints them: one static planner's plan
// of a usage-records file, and the table of strategies on a workload (each plan's total
// against the live-bytes bound and MNN's pool, and the planner's own time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/plan/strategies.h"
#include "models/workload/workload.h"

namespace memsim {

// "a,b,c" -> {"a", "b", "c"}; throws for a name that is not a strategy.
std::vector<std::string> split_strategies(const std::string& list);

struct PlanTableRow {
    std::string strategy;
    std::uint64_t total_bytes = 0;
    double ratio_to_bound = 0;  // total / live-bytes peak (0 when the bound is 0)
    double ratio_to_pool = 0;   // total / MNN pool's peak (0 when the pool's peak is 0)
    double time_ms = 0;         // the planner's own wall time, not the validation's
    std::string note;
};

struct PlanTable {
    std::size_t records = 0;
    std::uint64_t live_bytes_peak = 0;  // the lower bound of every plan
    std::uint64_t pool_peak_bytes = 0;
    std::vector<PlanTableRow> rows;
    std::vector<std::string> notes;  // strategies not run, and why
    double total_time_ms = 0;
};

// `strategy` is "all" (each distinct algorithm once) or a comma-separated list.
PlanTable plan_table(const Workload& w, const std::string& strategy, const plan::PlanOptions& options);

}  // namespace memsim
