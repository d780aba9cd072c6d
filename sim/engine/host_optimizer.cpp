#include "sim/engine/host_optimizer.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace memsim {

namespace sg = simgrid::s4u;

HostOptimizer::HostOptimizer(const SimPlatform& platform, NodeUsage& usage, HostTier& host, const HostCpuSpec& cpu,
                             const OffloadStep& step, int rank, Clock& clock, EventLog& log)
    : platform_(platform), usage_(usage), host_(host), cpu_(cpu), plan_(step), rank_(rank), clock_(clock), log_(log) {}

double HostOptimizer::adam_ms(double parameters, const HostCpuSpec& cpu) {
    return std::max(parameters * kAdamFlopsPerParameter / cpu.flops,
                    parameters * kAdamBytesPerParameter / cpu.memory_bytes_per_s) *
           1e3;
}

void HostOptimizer::reserve() {
    if (!host_.fits(plan_.optimizer_state_bytes))
        throw RunStopped{"host_full", fmt::format("GPU {}'s optimizer state ({} B, offloaded) does not fit in host RAM: {}",
                                                  rank_, plan_.optimizer_state_bytes, host_.state_text())};
    host_.take(plan_.optimizer_state_bytes);
    reserved_ = true;
}

void HostOptimizer::release() {
    if (reserved_) host_.release(plan_.optimizer_state_bytes);
    reserved_ = false;
}

// One flow on the rank's route to the host (or back), counted on its links like a
// collective's flow.
void HostOptimizer::transfer(bool to_host, std::uint64_t bytes, int op, std::string_view label) {
    if (bytes == 0) return;
    const double start = clock_.now();
    sg::Host* gpu = platform_.gpu_host(rank_);
    const auto scaled = static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * SimPlatform::kDiskScale));
    sg::Comm::sendto(to_host ? gpu : platform_.host, to_host ? platform_.host : gpu, scaled);
    const double end = clock_.now();
    for (const int lane : usage_.route(rank_, to_host)) {
        usage_.peer_occupied(lane, start, end, bytes);
        if (!log_.recording) continue;
        Activity a{log_.labels.keep(usage_.lane(lane)), start, end, op, label, {}, bytes};
        a.key = usage_.key(lane, kNoTier);
        log_.add(std::move(a));
    }
    if (log_.recording) log_.add({lane::kOffload, start, end, op, label, {}, bytes});
    moved_ += bytes;
}

void HostOptimizer::step(int op) {
    transfer(true, plan_.gradient_bytes, op, "gradients to the host");
    const double start = clock_.now();
    // The host runs at 1000 flop/s like every host of the platform: C "flops" last C ms.
    sg::this_actor::exec_init(adam_ms(plan_.parameters, cpu_))->set_host(platform_.host)->wait();
    step_ms_ = clock_.now() - start;
    if (log_.recording) log_.add({lane::kHostOptimizer, start, clock_.now(), op, "Adam on the host", {}, 0});
    transfer(false, plan_.parameter_bytes, op, "parameters to the GPU");
}

}  // namespace memsim
