// ZeRO-Offload on one rank (docs/parallel.md, policy.data_parallel.offload: optimizer):
// the rank's optimizer state sits in host RAM for the whole step, and once its gradients
// are reduced the rank sends its gradient partition to the host over its PCIe route, the
// host's CPU runs Adam on its parameters (an execution on the SimGrid host, so ranks
// stepping at once share the CPU), and the updated parameters come back.
#pragma once

#include <string_view>
#include <vector>

#include "models/parallel/data_parallel.h"
#include "sim/engine/clock.h"
#include "sim/engine/host_tier.h"
#include "sim/engine/node_usage.h"

namespace memsim {

class HostOptimizer {
public:
    HostOptimizer(const SimPlatform& platform, NodeUsage& usage, HostTier& host, const HostCpuSpec& cpu, const OffloadStep& step,
                  int rank, Clock& clock, EventLog& log);

    // At the start of the rank's run: its optimizer state takes host RAM (a RunStopped
    // host_full when it does not fit).
    void reserve();
    // After its gradients are reduced, in the GPU stream (which has nothing else to do):
    // gradients down, Adam on the host, parameters back. `op` labels the activities.
    void step(int op);
    void release();  // at the end of the run

    // The host's Adam for `parameters`: the longer of its flops at the CPU's rate and its
    // bytes at the memory bandwidth, in ms (alone on the CPU).
    [[nodiscard]] static double adam_ms(double parameters, const HostCpuSpec& cpu);
    [[nodiscard]] double step_ms() const { return step_ms_; }           // the host step, as it ran (shared CPU)
    [[nodiscard]] std::uint64_t moved_bytes() const { return moved_; }  // both ways

private:
    void transfer(bool to_host, std::uint64_t bytes, int op, std::string_view label);

    const SimPlatform& platform_;
    NodeUsage& usage_;
    HostTier& host_;
    HostCpuSpec cpu_;
    OffloadStep plan_;
    int rank_;
    Clock& clock_;
    EventLog& log_;
    bool reserved_ = false;
    double step_ms_ = 0;
    std::uint64_t moved_ = 0;
};

}  // namespace memsim
