// What the engine runs: the platform, the budget in bytes and every policy as a
// factory, resolved from a scenario by the run layer (resolve_engine_config in
// sim/app/run/run_config.h). The engine builds its policies from here and never reads a
// scenario, nor compares a policy name: names reach the summary as labels only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "models/alloc/allocator.h"
#include "models/parallel/collective_algorithms.h"
#include "models/parallel/data_parallel.h"
#include "models/platform/platform_spec.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/placement/placement_rule.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/selection/swap_selection.h"

namespace memsim {

// Recomputation time beyond this multiple of the compute time stops a run as thrash
// when policy.recompute.max_overhead is not set (the engine, and the static planners
// while they write their plan).
inline constexpr double kRunawayOverhead = 100.0;

// The no-prefetch peak (the in-use peak of the same run with every read on demand),
// asked for when a prefetch rule first needs it; it may still be being measured.
using NoPrefetchPeak = std::function<std::optional<std::uint64_t>()>;

// policy.data_parallel resolved (docs/parallel.md): the platform's GPUs are ranks of one
// step. `label` is the summary's ("zero 1, buckets of 26214400 B, ring").
struct DataParallelConfig {
    const ZeroStage* stage = nullptr;
    std::optional<std::uint64_t> bucket_bytes;  // none: one bucket after the backward
    const CollectiveAlgorithm* algorithm = nullptr;
    bool offload_optimizer = false;  // ZeRO-Offload: the step on the host (platform.host.cpu)
    std::string label;
};

struct EngineConfig {
    std::string scenario_name;
    std::string semantics_label;  // the summary's labels
    std::string swap_mode_label;
    PlatformSpec platform;  // its memory keys are resolved into `budget`
    std::optional<std::uint64_t> budget;
    std::optional<double> budget_ratio;  // reported in the summary when the budget came from it
    std::optional<std::uint64_t> budget_base;  // what budget_ratio is a fraction of (the live-bytes peak)
    Semantics semantics;
    bool hybrid = false;
    std::optional<double> max_overhead;  // none: kRunawayOverhead, reported as the built-in limit
    std::function<std::unique_ptr<Allocator>()> make_allocator;
    std::function<std::unique_ptr<SwapMode>()> make_swap_mode;
    std::function<std::unique_ptr<SwapSelection>()> make_selection;
    std::function<std::unique_ptr<PrefetchRule>()> make_prefetch;
    std::function<std::unique_ptr<EvictionHeuristic>()> make_heuristic;  // empty: no dynamic recomputation
    // The node model (platform.host.link set, docs/tiers.md): where a swapped tensor goes
    // and whether a disk transfer is staged through a host buffer. Unused without it.
    std::function<std::unique_ptr<PlacementRule>()> make_placement;
    SwapPathFlags swap_path;
    // Measured by the run layer when the prefetch rule caps at it (sim/app/run/measuring_runs.h);
    // empty otherwise, and a rule that asks then gets none.
    NoPrefetchPeak no_prefetch_peak;
    // False when nothing reads the run's event log: the measuring runs beside a run
    // (no-policy time, on-demand peak), and a run that writes no output drawn from the log
    // (records_event_log, sim/app/run/run_pipeline.h); the summary does not read it.
    bool record_events = true;
    std::optional<DataParallelConfig> data_parallel;  // unset: the GPUs are independent replicas
};

}  // namespace memsim
