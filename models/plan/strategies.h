// Name -> static planner (docs/planners.md). Object planners answer objects (laid end to
// end by objects_to_offsets when offsets are wanted); offset planners answer offsets.
//   objects: naive, equality, greedy_in_order, greedy_by_breadth, greedy_by_size,
//            greedy_best, mincostflow, mincostflow_fast, mxnet
//   offsets: greedy_by_size_offsets (TFLite's offsets greedy_by_size), peer_heuristic,
//            peer_heuristic_python, best_offsets
#pragma once

#include <span>
#include <string>
#include <vector>

#include "models/plan/plan_types.h"
#include "models/policy_table.h"

namespace memsim::plan {

enum class PlanKind { Objects, Offsets };

struct PlanOptions {
    std::uint64_t align = 1;        // offsets: every offset a multiple of this
    std::uint64_t seed = 1;         // peer_heuristic / best_offsets randomness
    int peer_iterations = 0;        // peer_heuristic improvement rounds
    ParamValues params;             // the strategy's own parameters (its row's); defaults for the rest
};

// A strategy's factory: an object planner (objects are laid end to end afterwards) or
// an offset planner; exactly one is set. Both get the parameters their row declares.
struct PlannerFactory {
    ObjectAssignment (*objects)(const std::vector<UsageRecord>& records, const PolicyParams& params) = nullptr;
    OffsetAssignment (*offsets)(const std::vector<UsageRecord>& records, const PlanOptions& options,
                                const PolicyParams& params) = nullptr;
    [[nodiscard]] PlanKind kind() const { return objects ? PlanKind::Objects : PlanKind::Offsets; }
};
// The table of static planners (`policy.allocator: planner:<name>`, `memsim plan`):
// objects first, then offsets. A row's parameters are also those of its allocator row
// (models/allocators.h).
using PlannerRow = PolicyRow<PlannerFactory>;
std::span<const PlannerRow> planner_table();

struct StrategyInfo {
    std::string name;
    PlanKind kind;
    std::string summary;
};

// Every strategy, objects first, in the order of the table.
const std::vector<StrategyInfo>& strategies();
std::vector<std::string> strategy_names();
// Throws std::invalid_argument naming the strategy, listing the valid ones and the closest.
const StrategyInfo& strategy_info(const std::string& name);

struct Plan {
    std::string strategy;
    PlanKind kind = PlanKind::Objects;
    ObjectAssignment objects;  // only for object strategies
    OffsetAssignment offsets;  // always (objects laid end to end for object strategies)
    std::uint64_t total = 0;   // the strategy's own total (sum of objects, or arena size)
};

// Runs the strategy. With `validate` the plan is checked (check_objects / check_offsets,
// std::logic_error on a violation) before it is returned.
Plan make_plan(const std::string& name, const std::vector<UsageRecord>& records, const PlanOptions& options = {},
               bool validate = true);
// The checks make_plan(validate = true) runs.
void validate_plan(const std::vector<UsageRecord>& records, const Plan& plan, std::uint64_t align);

}  // namespace memsim::plan
