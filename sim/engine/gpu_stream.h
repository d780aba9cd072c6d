// The GPU stream actor: runs the execution plan step by step as SimGrid executions,
// making each operator's inputs resident first (waiting for swap-ins, recomputing what
// was dropped), releasing tensors after their last use, and stopping a run that
// recomputes beyond its overhead limit. Where the semantics differ (when tensors are
// stamped, locked, released, ...) it calls the run's rules object (semantics_rules.h).
#pragma once

#include <optional>
#include <vector>

#include "models/workload/exec_plan.h"
#include "sim/engine/semantics_rules.h"
#include "sim/engine/swap_scheduler.h"

namespace memsim {

class GpuStream {
public:
    explicit GpuStream(const EngineContext& ctx);

    void run();  // the actor's body
    [[nodiscard]] bool finished() const { return finished_; }  // ran to the end of the plan
    void ensure_resident(TensorId t, int op, int depth = 0);
    // Runs `producer` again to regenerate its outputs (`for_tensor`: the one whose absence
    // caused it, -1 for a planned recompute step).
    void recompute(int producer, int for_op, int depth, TensorId for_tensor = -1);
    // Frees a resident tensor whose last use is behind it, unless the plan frees it itself.
    void free_if_dead(TensorId t, int op);
    // A tensor brought back only to regenerate another, kept until the requesting op has run.
    void keep_regenerated_input(TensorId t);
    // Under a recomputation budget a source (no producer) stays until the end.
    [[nodiscard]] bool kept_as_source(TensorId t) const;

    // What the stream did: the summary's compute and recompute counters.
    struct Counts {
        std::uint64_t executions = 0;  // SimGrid executions (operators and recomputations)
        double compute_ms = 0;         // operators run, scaled by the GPU speed
        std::uint64_t recomputed_ops = 0;
        double recompute_ms = 0;
        // The model's own checkpointing (Op::recomputes): re-run forward ops, part of
        // compute_ms, apart from the policy's recomputations above.
        std::uint64_t model_recomputed_ops = 0;
        double model_recompute_ms = 0;
    };
    [[nodiscard]] const Counts& counts() const { return counts_; }
    // Why the run stopped before the end (oom, thrash), if it did; and when it ended.
    [[nodiscard]] const std::optional<RunStopped>& stopped() const { return stopped_; }
    [[nodiscard]] double end_ms() const { return end_ms_; }

private:
    void run_step(const PlanStep& step);
    void check_reads_resident(int op) const;
    void run_exec(int op, const char* lane_name, bool top_level, const std::vector<TensorId>* scratch = nullptr,
                  TensorId for_tensor = -1);
    void check_overhead(int for_op) const;
    void release(TensorId t, int op, bool plan_step = false);
    void gather(TensorId t, int op);
    // The thrash limit compares against this after every recomputation: summed once.
    [[nodiscard]] double compute_ms_scaled() const { return compute_ms_scaled_; }
    void finish_iteration();

    const Workload& w_;
    const ExecPlan& plan_;
    double speed_;                      // platform.gpu.speed_scale
    bool planned_;                      // the plan has recompute or release steps: run as written
    bool budgeted_;                     // a memory budget is set
    std::optional<double> max_overhead_;
    SemanticsRules& rules_;
    TensorTable& tensors_;
    MemoryManager& memory_;
    SwapIo& io_;
    SwapScheduler& swap_;
    TransferQueue& queue_;
    Clock& clock_;
    EventLog& log_;
    RankCollectives* collectives_;  // null unless the GPUs are data-parallel ranks
    double compute_ms_scaled_ = 0;
    Counts counts_;
    std::optional<RunStopped> stopped_;
    double end_ms_ = 0;
    bool finished_ = false;
};

}  // namespace memsim
