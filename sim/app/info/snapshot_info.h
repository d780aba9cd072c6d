// What `memsim info --torch-snapshot FILE` prints: the recorded run's own allocator figures
// next to every allocator's replayed peak (docs/workloads.md, "PyTorch memory snapshots").
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "models/workload/torch_snapshot.h"

namespace memsim {

// Above this many tensors the table leaves the static planners out (null, and
// `replayed_peak_skipped` says why): 20,000 allocations take about 3.6 s through all of them
// on the 2-core machine, and the time grows with the square (docs/limits.md).
inline constexpr std::size_t kMaxInfoPlannedTensors = 20000;

// `alloc_conf`: torch_caching's options for the replay ("" = the ones the snapshot
// records, else PyTorch's defaults).
nlohmann::json snapshot_info(const SnapshotWorkload& s, const std::string& alloc_conf);

// The segment events torch_caching makes replaying the snapshot's workload with `alloc_conf`.
std::vector<std::pair<std::string, std::uint64_t>> replayed_segment_events(const Workload& w, const std::string& alloc_conf);

}  // namespace memsim
