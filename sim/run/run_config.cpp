#include "sim/run/run_config.h"

#include <cmath>

#include "models/allocators.h"
#include "models/alloc/replay.h"

namespace memsim {

std::optional<std::uint64_t> resolved_budget(const Scenario& s, const Workload& w) {
    if (s.platform.memory_budget || !s.platform.memory_budget_ratio) return s.platform.memory_budget;
    std::unique_ptr<Allocator> allocator = make_allocator(s.policy.allocator);
    allocator->prepare(w);
    const std::uint64_t peak = replay_peak(w, *allocator);
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(peak) * *s.platform.memory_budget_ratio));
}

RunConfig resolve_run_config(const Scenario& s, const Workload& w) {
    validate_policy(s);
    const PolicySpec& policy = s.policy;
    RunConfig c;
    c.scenario_name = s.name;
    c.semantics_label = policy.semantics;
    c.swap_mode_label = policy.swap.mode;
    c.platform = s.platform;
    c.budget = resolved_budget(s, w);
    c.budget_ratio = s.platform.memory_budget_ratio;
    c.semantics = find_row(semantics_table(), policy.semantics)->make();
    c.hybrid = policy.hybrid;
    c.max_overhead = policy.recompute.max_overhead;
    c.make_allocator = [name = policy.allocator] { return make_allocator(name); };
    c.make_swap_mode = find_row(swap_modes(), policy.swap.mode)->make;
    c.make_selection = find_row(swap_selections(), policy.swap.select)->make;
    if (c.semantics.read_issue_rule) {
        c.make_prefetch = c.semantics.read_issue_rule;
    } else {
        const PrefetchParams params{policy.swap.prefetch.lead_ops, policy.swap.prefetch.lead_ms, policy.swap.prefetch.cap_bytes};
        c.make_prefetch = [make = find_row(prefetch_rules(), policy.swap.prefetch.rule)->make.make, params] { return make(params); };
    }
    if (!policy.recompute.heuristic.empty())
        c.make_heuristic = [name = policy.recompute.heuristic, params = policy.recompute.params] {
            return make_eviction_heuristic(name, params);
        };
    return c;
}

}  // namespace memsim
