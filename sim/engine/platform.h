// The SimGrid platform built in code from a PlatformSpec (models/platform/): a GPU host
// on which operator i is an execution of cost_ms[i] / speed_scale flops at 1000 flop/s
// (so it lasts that many simulated milliseconds), and a disk attached to it.
//
// With a host link (platform.host.link, docs/tiers.md) it is a node instead: GPU hosts
// gpu0..gpuN-1, a "host" holding the disks, one split-duplex PCIe link per GPU and,
// with platform.gpus_per_switch, one split-duplex uplink per switch; a GPU reaches the
// host through its link then its switch's uplink, so transfers are SimGrid flows that
// share those links (max-min fairness, CM02 without TCP factors: exact times).
//
// With platform.file the node is SimGrid's own XML, loaded here and found by the same
// names (docs/tiers.md, "A platform file"); pcie_links and switch_links stay empty.
#pragma once

#include <sched.h>

#include <vector>

#include <simgrid/s4u.hpp>

#include "models/platform/platform_spec.h"

namespace memsim {

struct SimPlatform {
    simgrid::s4u::Host* gpu = nullptr;    // GPU 0 (the only one without a host link)
    simgrid::s4u::Disk* disk = nullptr;   // the one disk without a node
    // The node (empty without a host link).
    std::vector<simgrid::s4u::Host*> gpus;
    simgrid::s4u::Host* host = nullptr;
    // Per tier (by id): the devices on `host` its transfers do I/O on, named <key>0,
    // <key>1 (TierSpec::devices; empty for a tier the route alone reaches, host RAM).
    std::vector<std::vector<simgrid::s4u::Disk*>> devices;
    std::vector<simgrid::s4u::Link*> pcie_links;    // one per GPU
    std::vector<simgrid::s4u::Link*> switch_links;  // one per switch
    std::vector<simgrid::s4u::Link*> nvlinks;       // one per GPU with platform.nvlink
    // SimGrid 3.32's disk model rounds progress to whole bytes at every event; scaling
    // bytes and bandwidths by this factor makes I/O durations exact (docs/simgrid.md).
    // Link flows are scaled alike.
    static constexpr double kDiskScale = 1e6;

    [[nodiscard]] bool is_node() const { return host != nullptr; }
    [[nodiscard]] simgrid::s4u::Host* gpu_host(int g) const { return gpus.empty() ? gpu : gpus[static_cast<std::size_t>(g)]; }
    // The device GPU `g` uses for `tier` on the node (null for a tier without devices).
    [[nodiscard]] simgrid::s4u::Disk* device(TierId tier, int g) const {
        const std::vector<simgrid::s4u::Disk*>& d = devices[tier];
        return d.empty() ? nullptr : d[device_index(g, d.size())];
    }
};

// Creates the one SimGrid engine of this process (quiet logs) and the platform. A
// process builds one shape (one GPU + disk, or one node layout); later runs in it may
// change bandwidths, not the shape (every test case and every run has its own process).
SimPlatform build_platform(const PlatformSpec& spec);

// While it lives, keeps the calling thread (SimGrid's maestro) and the actor threads it
// starts on the CPU it runs on, then gives the thread its CPUs back. Only in sanitized
// builds, where actors are threads (create_engine): they run one at a time, handing over
// through futexes, and a hand-over between two cores cost tens of microseconds of kernel
// time (an engine test: 98.9 s on two cores, 21.3 s on one). Elsewhere it does nothing.
class ActorThreadsOnOneCpu {
public:
    ActorThreadsOnOneCpu();
    ~ActorThreadsOnOneCpu();
    ActorThreadsOnOneCpu(const ActorThreadsOnOneCpu&) = delete;
    ActorThreadsOnOneCpu& operator=(const ActorThreadsOnOneCpu&) = delete;

private:
    bool pinned_ = false;
    cpu_set_t before_{};  // the thread's CPUs, as they were
};

}  // namespace memsim
