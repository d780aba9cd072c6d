// `policy.recompute.planner`: the static recomputation planners by name.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "models/policy_table.h"
#include "models/recompute/optimal/incumbents.h"  // CandidatePlan
#include "models/recompute/plan_builder.h"        // PlanStopped
#include "models/workload/exec_plan.h"

namespace memsim {

// What a planner may use besides the workload and its parameters.
struct PlannerInputs {
    std::uint64_t budget_bytes = 0;
    double recompute_limit_ms = 0.0;  // > 0: a plan recomputing more stops (PlanStopped "thrash")
    // The dynamic heuristics' runs at this budget (the optimal planner's start; the run
    // pipeline sets it, sim/app/run/heuristic_runs.h); unset: none.
    std::function<std::vector<optimal::CandidatePlan>()> heuristic_runs;
};

struct PlannerOutput {
    ExecPlan plan;
    std::map<std::string, double> details;  // for the summary's details (the optimal planner's bound and gap)
};

// The table of `policy.recompute.planner`: name, one-line summary, the planner
// (workload, inputs, its parameters) -> plan and details, and the parameters it takes.
using RecomputePlannerRow = PolicyRow<PlannerOutput (*)(const Workload&, const PlannerInputs&, const PolicyParams&)>;
std::span<const RecomputePlannerRow> recompute_planner_table();

std::vector<std::string> recompute_planner_names();  // msps_on_demand, capuchin, sublinear, optimal
// Throws std::invalid_argument naming the unknown planner (with the valid ones and the
// closest) or a parameter its row does not take, and PlanStopped when the plan's
// recomputation exceeds the limit ("thrash") or no plan fits the budget ("infeasible",
// the optimal planner). `given`: the planner's parameters (its row's defaults for the rest).
PlannerOutput plan_recompute(const std::string& planner, const Workload& w, const PlannerInputs& inputs,
                             const ParamValues& given = {});
// The plan alone, with no heuristic runs.
ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms = 0, const ParamValues& given = {});

}  // namespace memsim
