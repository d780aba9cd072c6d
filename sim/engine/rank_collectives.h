// One rank's side of the data-parallel step (docs/parallel.md): after the op that
// completes a gradient bucket it submits the bucket's reduction, after the step's last op
// the all-gather of the updated parameters (ZeRO-1 and 2), before the op a ZeRO-3 gather is
// issued at that gather; before an op that reads a reduced gradient or a gathered
// parameter it waits for that collective, and the iteration ends when every collective it
// joined has. The time its GPU stream waited is the exposed communication.
#pragma once

#include <vector>

#include "models/parallel/data_parallel.h"
#include "sim/engine/collectives.h"
#include "sim/engine/host_optimizer.h"

namespace memsim {

// The step's collectives, in submission order, with the op after which each is
// submitted and, per op, the last collective it must wait for (-1: none). The same on
// every rank: built once per simulation.
struct StepCollectives {
    std::vector<CollectiveRequest> requests;
    // Per request: the full gradients a rank frees once it has ended (ZeRO-2: the
    // reduce-scatter left the rank its shard).
    std::vector<std::vector<TensorId>> frees;
    std::vector<int> wait_before_op;         // per op
    std::vector<std::vector<int>> after_op;  // per op: the requests submitted after it
    std::vector<std::vector<int>> before_op;  // per op: the requests submitted before it (ZeRO-3's gathers)
    // Per request: the parameters a gather brings back (allocated as it is issued), and per
    // op the parameters freed after it (the end of their stretch of use; ZeRO-3).
    std::vector<std::vector<TensorId>> gathers;
    std::vector<std::vector<TensorId>> release_after_op;
    // With the optimizer offloaded the parameters' all-gather (this request) follows the
    // host's step at the end of the iteration instead of an op; -1 otherwise.
    int gather_after_offload = -1;
};
StepCollectives plan_step_collectives(const RankWorkload& rank, const ZeroStage& stage,
                                      std::optional<std::uint64_t> bucket_bytes);

class RankCollectives {
public:
    // `offload`: the rank's host optimizer (offload: optimizer), owned by the caller; null otherwise.
    RankCollectives(Collectives& node, const StepCollectives& plan, int rank, Clock& clock, HostOptimizer* offload = nullptr)
        : node_(node), plan_(plan), rank_(rank), clock_(clock), offload_(offload) {}

    void at_start();  // before the rank's first op: the offloaded optimizer state takes host RAM
    // Waits for what op needs; returns the full gradients to free now (ZeRO-2: those of
    // every reduce-scatter that ended since the last call), for the stream to release.
    std::vector<TensorId> before_op(int op);
    // The parameters to allocate before op, for the gathers issued there (the stream
    // allocates them, then before_op issues the gathers).
    [[nodiscard]] std::vector<TensorId> to_gather(int op) const;
    // Submits what follows op; returns the parameters to free after it.
    std::vector<TensorId> after_op(int op);
    std::vector<TensorId> at_end(int last_op);  // waits for every collective this rank submitted; frees as before_op
    // The rank's stream ended (once: a second call does nothing), stopped or not.
    void ended(const std::optional<RunStopped>& stopped);
    [[nodiscard]] double exposed_ms() const { return exposed_ms_; }
    [[nodiscard]] const HostOptimizer* offload() const { return offload_; }

private:
    void wait_for(int seq, int op);
    std::vector<TensorId> landed();

    Collectives& node_;
    const StepCollectives& plan_;
    int rank_;
    Clock& clock_;
    HostOptimizer* offload_;
    int submitted_ = 0;
    int landed_ = 0;  // requests whose frees were handed to the stream
    bool ended_ = false;
    double exposed_ms_ = 0;
};

}  // namespace memsim
