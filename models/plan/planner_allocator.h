// Static planners used as allocators by `memsim run` (policy.allocator: planner:<strategy>).
// prepare() plans the workload's usage records once; the arena of the plan's total is
// reserved up front, so footprint = peak = the planner's total. allocate/release only
// check the placement: a tensor outside the plan, larger than planned, allocated twice,
// or overlapping the bytes of a live tensor (in-place pairs of the plan excepted) is a
// std::logic_error naming both tensors and their planned operators.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/alloc/allocator.h"
#include "models/policy_params.h"

namespace memsim {

std::vector<std::string> planner_strategy_names();
// Throws std::invalid_argument for an unknown strategy. `params`: the strategy's own
// parameters (its row's defaults for the rest).
std::unique_ptr<Allocator> make_planner_allocator(const std::string& strategy, const ParamValues& params = {});

}  // namespace memsim
