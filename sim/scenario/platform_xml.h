// platform.file (docs/tiers.md, "A platform file"): a node described in SimGrid's own
// platform XML (version 4.1), read and checked here before SimGrid sees it, because
// SimGrid 3.32 aborts the process on many errors (a missing route among them) instead
// of throwing. The reader finds the node by its naming convention (hosts gpu0..gpuN-1,
// a host "host" holding the disks disk0..diskK-1), checks that every GPU has a route to
// "host" and back (declared for the pair: routes are not chained), notes the first pair
// of GPUs left unrouted (data-parallel ranks need every pair), and reads the numbers the transfer predictions need: each route's
// bottleneck bandwidth and summed latency, each disk's rates. Values are parsed with
// SimGrid's own unit parser (xbt/parse_units.hpp), so they are the numbers SimGrid
// simulates; the engine checks its routes against them once loaded (sim/engine/platform.cpp).
#pragma once

#include <string>
#include <vector>

#include "models/platform/platform_spec.h"

namespace memsim {

struct PlatformXml {
    int gpus = 0;  // hosts gpu0 .. gpuN-1
    // GPU i's route to "host" as a tier: write = GPU -> host, read = host -> GPU, each the
    // route's smallest link bandwidth and the sum of its link latencies.
    std::vector<DiskSpec> routes;
    std::vector<DiskSpec> disks;  // disk0 .. diskK-1 on "host" (latencies: their props)
    // The first ordered pair of GPUs the file does not route (data-parallel ranks send to
    // each other: docs/parallel.md), as "element 'route ...': missing: ..."; empty when
    // every GPU reaches every other.
    std::string unrouted_gpu_pair;
    // The checked file as SimGrid is given it (platform_xml_allow.h): SimGrid never opens the path.
    std::string simgrid_text;
};

// The routing types memsim accepts (any other is refused): in both, every GPU needs a
// <route> of its own to "host" (docs/tiers.md, "A platform file").
inline constexpr const char* kSupportedRoutings = "Full, Floyd";

// Throws InputError "FILE: element 'X': what is missing or wrong".
PlatformXml read_platform_xml(const std::string& file);

}  // namespace memsim
