// The SimGrid platform built in code from a PlatformSpec (models/platform/): a GPU host
// on which operator i is an execution of cost_ms[i] / speed_scale flops at 1000 flop/s
// (so it lasts that many simulated milliseconds), and a disk attached to it.
#pragma once

#include <simgrid/s4u.hpp>

#include "models/platform/platform_spec.h"

namespace memsim {

struct SimPlatform {
    simgrid::s4u::Host* gpu = nullptr;
    simgrid::s4u::Disk* disk = nullptr;
    // SimGrid 3.32's disk model rounds progress to whole bytes at every event; scaling
    // bytes and bandwidths by this factor makes I/O durations exact (docs/simgrid.md).
    static constexpr double kDiskScale = 1e6;
};

// Creates the one SimGrid engine of this process (quiet logs) and the platform.
SimPlatform build_platform(const PlatformSpec& spec);

}  // namespace memsim
