#include "engine/platform.h"

#include <algorithm>
#include <iterator>

#include <xbt/log.h>

namespace memsim {

SimPlatform build_platform(const PlatformSpec& spec) {
    // One Engine per process (SimGrid aborts on a second one): created on first use and
    // kept; later simulations in the same process reuse it and measure time relative to
    // their own start, since the clock never goes back.
    static SimPlatform platform;
    if (!platform.gpu) {
        static char name[] = "memsim";
        static char quiet[] = "--log=root.thres:critical";
#ifdef MEMSIM_SANITIZE
        // ASan cannot follow SimGrid's swapped actor stacks (an exception unwinding on
        // one is reported as a stack overflow): sanitized builds run actors as threads.
        static char threads[] = "--cfg=contexts/factory:thread";
        static char* argv[] = {name, quiet, threads, nullptr};
#else
        static char* argv[] = {name, quiet, nullptr};
#endif
        static int argc = static_cast<int>(std::size(argv)) - 1;
        new simgrid::s4u::Engine(&argc, argv);
        xbt_log_control_set("root.thres:critical");
        auto* zone = simgrid::s4u::create_full_zone("root");
        // 1000 flop/s: executing C flops lasts C ms; speed scaling divides the amount.
        platform.gpu = zone->create_host("gpu", 1e3);
        platform.disk = platform.gpu->create_disk("disk", spec.disk.read_bytes_per_s * SimPlatform::kDiskScale,
                                                  spec.disk.write_bytes_per_s * SimPlatform::kDiskScale);
        zone->seal();
        return platform;
    }
    platform.disk->set_read_bandwidth(spec.disk.read_bytes_per_s * SimPlatform::kDiskScale);
    platform.disk->set_write_bandwidth(spec.disk.write_bytes_per_s * SimPlatform::kDiskScale);
    // The disk also has a shared read+write constraint, fixed at creation to the larger
    // of the two: without this, a later run with a faster disk would be capped by the
    // first run's bandwidth. (Our disk actor serves one I/O at a time, so it never binds.)
    platform.disk->set_readwrite_bandwidth(std::max(spec.disk.read_bytes_per_s, spec.disk.write_bytes_per_s) *
                                           SimPlatform::kDiskScale);
    return platform;
}

}  // namespace memsim
