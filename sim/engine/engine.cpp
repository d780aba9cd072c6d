// The wiring: builds the clock, the tensor table, the disk queue, the memory manager,
// the swap side and the GPU stream from a RunConfig, runs the two actors, and fills the
// summary.
#include "sim/engine/engine.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "sim/engine/gpu_stream.h"
#include "sim/engine/policy_view.h"
#include "sim/engine/side_run.h"
#include "sim/platform.h"

namespace memsim {

namespace {

namespace sg = simgrid::s4u;

bool has_plan_steps(const ExecPlan& plan) {
    return std::any_of(plan.begin(), plan.end(), [](const PlanStep& p) { return p.kind != StepKind::Compute; });
}

class Engine {
public:
    Engine(const Workload& w, const RunConfig& c, const ExecPlan& plan, std::unique_ptr<SwapSelection> selection,
           std::unique_ptr<SwapMode> mode, std::unique_ptr<PrefetchRule> prefetch,
           NoPrefetchPeak no_prefetch_peak = {})
        : w_(w), c_(c), plan_(plan), clock_(result_.summary, result_.log),
          storages_(c.semantics.dtr_runtime ? std::make_unique<StorageBook>(w) : nullptr),
          tensors_(w, plan, c.platform.gpu_speed_scale),
          disk_(w, c_.platform.disk, clock_, result_.log, result_.summary),
          memory_(w, tensors_, clock_, result_.log, result_.summary, c.make_allocator(), c.budget,
                  eviction_policy(c, *selection, *mode)),
          view_(w, tensors_, clock_, memory_, disk_, c.platform.gpu_speed_scale, c.semantics.dtr_runtime, storages_.get()),
          io_(w, tensors_, memory_, disk_, clock_, result_.log, result_.summary, c.semantics.reference_io && mode->has_sync_points()),
          swap_(w, tensors_, memory_, io_, disk_, clock_, std::move(mode), std::move(prefetch),
                c.semantics.reference_io, c.platform.gpu_speed_scale, std::move(no_prefetch_peak)),
          gpu_(w, plan, {c.platform.gpu_speed_scale, c.semantics.dtr_runtime, has_plan_steps(plan), c.budget.has_value(),
                         c.max_overhead, storages_.get()},
               tensors_, memory_, io_, swap_, disk_, clock_, result_.log, result_.summary) {
        memory_.connect(&io_, &view_);
        tensors_.use_storages(storages_.get());
        memory_.connect_storages(storages_.get());
        swap_.connect(&gpu_);
        if (swap_.moves_tensors()) swap_.set_plan((c.hybrid ? make_hybrid_selection() : std::move(selection))->plan(w, selection_inputs(c)));
    }

    RunResult run() {
        // One activity per step plus I/O; about two memory samples and two residency
        // changes (taken, given back) per tensor.
        result_.log.recording = c_.record_events;
        if (c_.record_events) {
            result_.log.activities.reserve(plan_.size() + plan_.size() / 4);
            result_.log.memory.reserve(2 * w_.tensors.size() + 16);
            result_.log.residency.reserve(2 * w_.tensors.size() + 16);
        }
        platform_ = build_platform(c_.platform);
        clock_.start();
        disk_.attach(platform_.disk, &io_);
        sg::Actor::create("gpu_stream", platform_.gpu, [this] { gpu_.run(); });
        // Not a daemon: daemons outlive run() in SimGrid 3.32 and would wake up inside the
        // next simulation of the same process. The GPU stream tells it to stop instead.
        sg::Actor::create("disk_io", platform_.gpu, [this] { disk_.serve(); });
        sg::Engine::get_instance()->run();
        // An error inside an actor first: it is the cause of an unfinished run.
        if (clock_.error()) std::rethrow_exception(clock_.error());
        if (!gpu_.finished() && result_.summary.status == "ok")
            throw InvariantError("the simulation deadlocked before the last operator (an actor waited for an event nobody signals)");
        fill_summary();
        return std::move(result_);
    }

private:
    static SelectionInputs selection_inputs(const RunConfig& c) {
        return {c.budget, TransferModel(c.platform.disk), c.platform.gpu_speed_scale};
    }

    // Who picks forced evictions and where they go: a recompute heuristic picks first;
    // otherwise the selection's victim rule, whose victims go to disk.
    static EvictionPolicy eviction_policy(const RunConfig& c, const SwapSelection& selection, const SwapMode& mode) {
        EvictionPolicy p;
        if (c.make_heuristic) p.heuristic = c.make_heuristic();
        p.victim = selection.victim_rule();
        p.spill = mode.moves_tensors() && p.victim && (!p.heuristic || selection.spills_heuristic_victims());
        p.hybrid = c.hybrid;
        p.dtr_runtime = c.semantics.dtr_runtime;
        return p;
    }

    void fill_summary() {
        Summary& sm = result_.summary;
        sm.scenario = c_.scenario_name;
        sm.workload = workload_label(w_);
        sm.allocator = memory_.allocator().name();
        sm.semantics = c_.semantics_label;
        sm.swap_mode = c_.swap_mode_label;
        sm.peak_bytes = memory_.allocator().peak_bytes();
        sm.live_peak_bytes = memory_.live_peak();
        sm.iteration_compute_ms = w_.compute_ms() / c_.platform.gpu_speed_scale;  // compute_ms: as ops ran (GpuStream)
        sm.ops = w_.ops.size();
        sm.forward_end = w_.forward_end;
        sm.swap_selected_tensors = swap_.plan().selected.size();
        sm.swap_writes_cancelled = io_.cancelled_writes();
        if (c_.hybrid) {
            sm.details["hybrid_swapped"] = static_cast<double>(memory_.hybrid_tally().swapped);
            sm.details["hybrid_dropped"] = static_cast<double>(memory_.hybrid_tally().dropped);
        }
        if (swap_.moves_tensors()) {
            sm.details["swap_selected_bytes"] = static_cast<double>(swap_.plan().selected_bytes);
        }
        if (result_.log.forward_end_ms >= 0) {
            sm.details["forward_ms"] = result_.log.forward_end_ms;
            sm.details["backward_ms"] = sm.time_ms - result_.log.forward_end_ms;
        }
        result_.log.budget_bytes = c_.budget;
        sm.budget_bytes = c_.budget;
        sm.budget_ratio = c_.budget_ratio;
        sm.budget_base_bytes = c_.budget_base;
    }

    const Workload& w_;
    const RunConfig& c_;
    const ExecPlan& plan_;
    RunResult result_;
    Clock clock_;
    std::unique_ptr<StorageBook> storages_;  // dtr semantics only
    TensorTable tensors_;
    DiskQueue disk_;
    MemoryManager memory_;
    PolicyView view_;
    SwapIo io_;
    SwapScheduler swap_;
    GpuStream gpu_;
    SimPlatform platform_;
};

// The in-use peak of the same run with every read issued only when its consumer starts:
// the memory cap of a prefetch rule that asks for it. Measured by running it (in a child
// process, so this run's clock starts where a lone run's would), because the plan's own
// prediction takes writes as instantaneous and misses the memory that writes still in
// the queue hold (docs/swap.md, "budget"). The child starts before this run and is waited
// for only when a rule first asks for the cap, so on a second core the two overlap (the
// forward pass issues no prefetch).
class PendingPeak {
public:
    PendingPeak(const Workload& w, const RunConfig& config, const ExecPlan& plan)
        : child_(
              [&]() -> std::uint64_t {
                  RunConfig measuring = config;
                  measuring.record_events = false;
                  Engine on_demand(w, measuring, plan, config.make_selection(), config.make_swap_mode(), make_on_demand_prefetch());
                  return on_demand.run().summary.live_peak_bytes;
              },
              kWhat) {}

    std::optional<std::uint64_t> get() {
        if (!peak_) {
            peak_ = child_.result();
            if (!peak_) throw std::runtime_error(std::string("cannot measure ") + kWhat + ": " + child_.error());
        }
        return peak_;
    }

private:
    static constexpr const char* kWhat = "the no-prefetch peak (the default memory cap of prefetch: budget without a "
                                         "budget; policy.swap.prefetch: {budget: {cap: SIZE}} sets it instead)";
    ChildMeasurement child_;
    std::optional<std::uint64_t> peak_;
};

}  // namespace

RunResult simulate(const Workload& w, const RunConfig& config, const ExecPlan& plan) {
    std::unique_ptr<SwapMode> mode = config.make_swap_mode();
    std::unique_ptr<PrefetchRule> prefetch = config.make_prefetch();
    std::unique_ptr<PendingPeak> pending;
    NoPrefetchPeak cap;
    if (!config.budget && mode->uses_prefetch_rule() && prefetch->caps_at_no_prefetch_peak()) {
        pending = std::make_unique<PendingPeak>(w, config, plan);
        cap = [p = pending.get()] { return p->get(); };
    }
    Engine engine(w, config, plan, config.make_selection(), std::move(mode), std::move(prefetch), std::move(cap));
    return engine.run();
}

}  // namespace memsim
