// The platform keys of the node model (docs/tiers.md): GPUs, host RAM and its PCIe
// links, switch uplinks, disks, the staggered start. Read beside the rest of the
// platform section (sections.cpp).
#pragma once

#include "sim/scenario/parser.h"

namespace memsim {

// One disk's keys (platform.disk, each entry of platform.disks), `key` naming it.
DiskSpec parse_disk(const YAML::Node& d, const Parser& p, const std::string& key);
// platform.gpus, platform.host.*, platform.gpus_per_switch, platform.switch.*,
// platform.disks, platform.gpu_offset_ms, checked together.
void parse_node_keys(const YAML::Node& n, const Parser& p, PlatformSpec& s);

}  // namespace memsim
