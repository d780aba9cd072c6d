#include "sim/app/run/run_config.h"

#include <cmath>

#include <fmt/format.h>

#include "models/allocators.h"
#include "models/alloc/replay.h"
#include "models/workload/input_error.h"
#include "sim/report/text_format.h"
#include "sim/app/run/working_set.h"
#include "sim/engine/summary.h"
#include "sim/scenario/set_origin.h"

namespace memsim {

std::uint64_t budget_base_bytes(const Workload& w) {
    std::unique_ptr<Allocator> allocator = make_allocator("os");
    allocator->prepare(w);
    return replay_peak(w, *allocator);
}

std::optional<std::uint64_t> resolved_budget(const Scenario& s, const Workload& w) {
    if (s.platform.memory_budget || !s.platform.memory_budget_ratio) return s.platform.memory_budget;
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(budget_base_bytes(w)) * *s.platform.memory_budget_ratio));
}

void check_budget_fits_every_op(const Scenario& s, const Workload& w, std::uint64_t budget) {
    const OpWorkingSet largest = largest_working_set(w);
    if (largest.op < 0 || budget >= largest.bytes) return;
    const std::string key = s.platform.memory_budget_ratio ? "platform.memory.budget_ratio" : "platform.memory.budget";
    throw InputError(fmt::format("{}: {}: the budget {} ({} B) is below the working set of operator {} '{}': {} ({} B), its "
                                 "inputs, outputs and scratch resident together while it runs; no policy can run it",
                                 key_origin(s.file, s.overrides, key), key, format_bytes_human(budget), budget, largest.op,
                                 w.ops[largest.op].name, format_bytes_human(largest.bytes), largest.bytes));
}

// policy.data_parallel against the workload and the platform (docs/parallel.md): the ranks
// exchange gradients, so the workload must say which tensors are gradients.
std::optional<DataParallelConfig> resolve_data_parallel(const Scenario& s, const Workload& w) {
    const std::optional<DataParallelSpec>& dp = s.policy.data_parallel;
    if (!dp) return std::nullopt;
    const auto fail = [&](const std::string& what) {
        throw InputError(
            fmt::format("{}: policy.data_parallel: {}", key_origin(s.file, s.overrides, "policy.data_parallel"), what));
    };
    // A platform file routes GPU to GPU itself; the collectives need every pair.
    if (!s.platform.file_unrouted_gpu_pair.empty() && s.platform.gpus > 1)
        throw InputError(
            fmt::format("{}: {}: policy.data_parallel's collectives send from every GPU to every other "
                        "(docs/parallel.md, \"A platform file\")",
                        s.platform.simgrid_file, s.platform.file_unrouted_gpu_pair));
    // ZeRO-3's gathered parameters come and go with their collectives: a recomputed op
    // would read its layer's parameters, which ZeRO-3 gathers again (not modelled), and a
    // swap may move activations and optimizer state, not what the collectives own.
    const PolicySpec& policy = s.policy;
    const bool moves = find_row(swap_modes(), policy.swap.mode)->flags.moves_tensors;
    const bool recomputes = !policy.recompute.heuristic.empty() || !policy.recompute.planner.empty() || policy.hybrid;
    const bool simulated = find_row(semantics_table(), policy.semantics)->make().rules == EngineRules::Simulated;
    if (dp->zero == 3 && (recomputes || !simulated))
        fail(
            "zero 3 runs without recomputation and with the simulated semantics for now (a recomputed op reads its layer's "
            "parameters, which ZeRO-3 would gather again): docs/parallel.md, \"Not modelled yet\"");
    if (dp->zero == 3 && moves && find_row(swap_selections(), policy.swap.select)->flags.may_move_parameters) {
        std::vector<std::string_view> others;
        for (const SwapSelectionRow& row : swap_selections())
            if (!row.flags.may_move_parameters) others.push_back(row.name);
        fail(
            fmt::format("zero 3 gathers, frees and reduce-scatters the parameters and gradients itself, and "
                        "policy.swap.select '{}' may move them: choose one of {} (docs/parallel.md)",
                        policy.swap.select, fmt::join(others, ", ")));
    }
    if (model_states(w).gradient == 0)
        fail(
            fmt::format("the workload {} has no tensor whose role is gradient, so there is nothing to exchange (roles: "
                        "docs/workloads.md, \"Roles\"; a traced log or the synthetic gpt has them)",
                        workload_label(w)));
    DataParallelConfig c;
    c.stage = zero_stage(dp->zero);
    c.bucket_bytes = dp->bucket_bytes;
    c.algorithm = collective_algorithm(dp->algorithm);
    c.offload_optimizer = dp->offload_optimizer;
    if (dp->offload_optimizer && !s.platform.host_cpu)
        fail(
            "offload 'optimizer' runs the step on the host's CPU: give platform.host.cpu {speed: FLOP/s, memory_bandwidth: "
            "RATE} (e.g. {speed: 2e12, memory_bandwidth: 100GB/s}; docs/parallel.md)");
    c.label = fmt::format(
        "{} ranks, zero {}{}, {}, {} collectives", s.platform.gpus, dp->zero,
        dp->offload_optimizer ? " with the optimizer on the host" : "",
        dp->bucket_bytes ? fmt::format("buckets of {} B", *dp->bucket_bytes) : std::string("one bucket (whole)"), dp->algorithm);
    return c;
}

std::optional<Workload> rank_workload(const Scenario& s, const Workload& w) {
    const std::optional<DataParallelSpec>& dp = s.policy.data_parallel;
    if (!dp) return std::nullopt;
    return shard_for_rank(w, *zero_stage(dp->zero), s.platform.gpus, dp->bucket_bytes, dp->offload_optimizer).workload;
}

EngineConfig resolve_engine_config(const Scenario& s, const Workload& w) {
    validate_policy(s);
    const PolicySpec& policy = s.policy;
    EngineConfig c;
    c.scenario_name = s.name;
    c.semantics_label = policy.semantics;
    c.swap_mode_label = policy.swap.mode;
    c.platform = s.platform;
    c.budget = resolved_budget(s, w);
    c.budget_ratio = s.platform.memory_budget_ratio;
    if (c.budget_ratio) c.budget_base = budget_base_bytes(w);
    c.semantics = find_row(semantics_table(), policy.semantics)->make();
    // The published DTR runtime reports such a budget as out of memory (its h_DTR table
    // has OOM cells there): dtr semantics keep that answer (docs/budgets.md).
    c.data_parallel = resolve_data_parallel(s, w);
    // A data-parallel rank runs its share: the step's ops read shards, not whole tensors.
    if (c.budget && !c.semantics.runs_below_working_set) {
        const std::optional<Workload> rank = c.data_parallel ? rank_workload(s, w) : std::nullopt;
        check_budget_fits_every_op(s, rank ? *rank : w, *c.budget);
    }
    c.hybrid = policy.hybrid;
    c.max_overhead = policy.recompute.max_overhead;
    // Each factory builds its row's policy with the parameters the scenario gave it.
    c.make_allocator = [name = policy.allocator, given = policy.allocator_params] { return make_allocator(name, given); };
    c.make_swap_mode = [row = find_row(swap_modes(), policy.swap.mode), given = policy.swap.mode_params] {
        return make_swap_mode(*row, given);
    };
    c.make_selection = [row = find_row(swap_selections(), policy.swap.select), given = policy.swap.select_params] {
        return make_swap_selection(*row, given);
    };
    if (c.semantics.read_issue_rule) {
        c.make_prefetch = c.semantics.read_issue_rule;
    } else {
        const PrefetchRow* row = find_row(prefetch_rules(), policy.swap.prefetch);
        c.make_prefetch = [row, params = PolicyParams(row->params, policy.swap.prefetch_params)] { return row->make(params); };
    }
    const PlacementRow* placement = find_row(placement_rules(), policy.swap.placement);
    c.make_placement = [placement, params = PolicyParams(placement->params, policy.swap.placement_params)] {
        return placement->make(params);
    };
    c.swap_path = find_row(swap_paths(), policy.swap.path)->flags;
    if (!policy.recompute.heuristic.empty())
        c.make_heuristic = [name = policy.recompute.heuristic, given = policy.recompute.heuristic_params] {
            return make_eviction_heuristic(name, given);
        };
    return c;
}

}  // namespace memsim
