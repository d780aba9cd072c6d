// The wiring: builds the clock, the tensor table, the disk queue, the memory manager,
// the swap side and the GPU stream from a EngineConfig, runs the two actors, and fills the
// summary.
#include "sim/engine/engine.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "sim/engine/gpu_stream.h"
#include "sim/engine/policy_view.h"
#include "sim/platform.h"

namespace memsim {

namespace {

namespace sg = simgrid::s4u;

bool has_plan_steps(const ExecPlan& plan) {
    return std::any_of(plan.begin(), plan.end(), [](const PlanStep& p) { return p.kind != StepKind::Compute; });
}

class Engine {
public:
    Engine(const Workload& w, const EngineConfig& c, const ExecPlan& plan, std::unique_ptr<SwapSelection> selection,
           std::unique_ptr<SwapMode> mode, std::unique_ptr<PrefetchRule> prefetch)
        : w_(w), c_(c), plan_(plan), clock_(result_.summary, result_.log),
          storages_(c.semantics.dtr_runtime ? std::make_unique<StorageBook>(w) : nullptr),
          tensors_(w, plan, c.platform.gpu_speed_scale),
          disk_(w, c_.platform.disk, clock_, result_.log, result_.summary),
          memory_(w, tensors_, clock_, result_.log, result_.summary, c.make_allocator(), c.budget,
                  eviction_policy(c, *selection, *mode)),
          view_(w, tensors_, clock_, memory_, disk_, c.platform.gpu_speed_scale, c.semantics.dtr_runtime, storages_.get()),
          io_(w, tensors_, memory_, disk_, clock_, result_.log, result_.summary, c.semantics.reference_io && mode->has_sync_points()),
          swap_(w, tensors_, memory_, io_, disk_, clock_, std::move(mode), std::move(prefetch),
                c.semantics.reference_io, c.platform.gpu_speed_scale, c.no_prefetch_peak),
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
    static SelectionInputs selection_inputs(const EngineConfig& c) {
        return {c.budget, TransferModel(c.platform.disk), c.platform.gpu_speed_scale};
    }

    // Who picks forced evictions and where they go: a recompute heuristic picks first;
    // otherwise the selection's victim rule, whose victims go to disk.
    static EvictionPolicy eviction_policy(const EngineConfig& c, const SwapSelection& selection, const SwapMode& mode) {
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
    const EngineConfig& c_;
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

}  // namespace

RunResult simulate(const Workload& w, const EngineConfig& config, const ExecPlan& plan) {
    Engine engine(w, config, plan, config.make_selection(), config.make_swap_mode(), config.make_prefetch());
    return engine.run();
}

}  // namespace memsim
