// Shared machinery of the static recomputation planners: tracks which tensors a plan
// leaves resident while it is being written, regenerates missing inputs recursively,
// and finally frees every recomputed copy right after its last use (a copy made for a
// recomputation chain is otherwise never freed: its op's release list already ran).
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/workload/exec_plan.h"

namespace memsim {

// A planner whose plan cannot be written: `status` is "thrash" (its recomputation exceeds
// the limit) and the run reports it like the engine's own thrash.
struct PlanStopped : std::runtime_error {
    PlanStopped(std::string status_, const std::string& message) : std::runtime_error(message), status(std::move(status_)) {}
    std::string status;
};

class PlanBuilder {
public:
    // free_chain_ancestors: see regenerate_inputs; sublinear keeps them (a segment is
    // recomputed once and stays until its last use, as in Chen et al.).
    explicit PlanBuilder(const Workload& w, bool free_chain_ancestors = true);

    [[nodiscard]] const Workload& workload() const { return w_; }
    [[nodiscard]] bool resident(TensorId t) const { return live_[t] != 0; }
    [[nodiscard]] std::uint64_t live_bytes() const { return live_bytes_; }
    // Ops (>= from) that read t: has the tensor a use still to come?
    [[nodiscard]] bool used_from(TensorId t, int from) const;
    // The tensor's producer plus every producer of a non-resident ancestor needed to
    // recompute it (each op once), in ms.
    [[nodiscard]] double recompute_cost_ms(TensorId t) const;

    // Compute steps go in op order, each after regenerate_inputs(op), which also makes the
    // constants arriving at op resident. A constant or input (no producer) stays resident
    // after its release until finish() frees it after its last use in the plan, since a
    // recomputation may still read it.
    void compute(int op);
    // Recomputes, recursively and in ascending tensor order, the non-resident inputs of op.
    // With free_chain_ancestors, a tensor brought back only to recompute another (no use
    // from `op` on) is released once every input of `op` is back, so sibling branches
    // share it (releasing it at once regenerated shared ancestors once per branch:
    // exponential on Squeezenet's fire modules), and before anything else when a planner
    // needs room (release_dead_ancestor); otherwise it stays until finish() frees it after
    // its last use.
    void regenerate_inputs(int op);
    void regenerate(TensorId t, int for_op);
    void release(TensorId t);
    // Releases the oldest unpinned ancestor kept for sibling regenerations; false if none.
    bool release_dead_ancestor();
    // Recomputation written so far beyond `ms` stops the planner (PlanStopped "thrash").
    void set_recompute_limit_ms(double ms) { recompute_limit_ms_ = ms; }

    // Called right before each Recompute step is written (op = the op recomputed,
    // for_op = the op whose inputs are being regenerated), so a planner can release
    // tensors to make room for it. It must not release a pinned tensor.
    void set_before_recompute(std::function<void(int op, int for_op)> hook) { before_recompute_ = std::move(hook); }
    // Inputs of the op being prepared and of every recomputation under way (they must
    // stay resident until it has run).
    [[nodiscard]] bool pinned(TensorId t) const { return pins_[t] != 0; }

    // The plan with a Release inserted after the last use of every copy that would stay
    // resident to the end although the straight plan frees that tensor.
    [[nodiscard]] ExecPlan finish() const;

    // The tensor whose memory t uses: its storage for an alias (DTR logs), else t.
    [[nodiscard]] TensorId storage(TensorId t) const;

private:
    void regenerate_inputs_of(int producer, int for_op);
    void take(TensorId t);
    void drop(TensorId t);
    const Workload& w_;
    ExecPlan plan_;
    std::vector<char> live_;
    std::vector<int> pins_;
    std::function<void(int, int)> before_recompute_;
    std::vector<std::vector<int>> readers_;  // tensor -> ops reading it, ascending
    std::uint64_t live_bytes_ = 0;
    bool free_chain_ancestors_ = true;
    std::vector<TensorId> dead_ancestors_;  // brought back for a recomputation, no use left
    double recompute_ms_ = 0.0;
    double recompute_limit_ms_ = 0.0;       // 0: no limit
};

}  // namespace memsim
