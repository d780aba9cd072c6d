// The static facts `memsim info` prints about a workload.
#pragma once

#include <nlohmann/json.hpp>

#include "models/workload/workload.h"

namespace memsim {

// ops, tensors, forward_end (+ rule), compute_ms, feature_maps, feature_map_bytes,
// oracle_peak_bytes (os), pool_peak_bytes, swap_time_lower_bound_ms (every feature
// map written and read once at `disk_bytes_per_s`).
nlohmann::json workload_info(const Workload& w, double disk_bytes_per_s);

}  // namespace memsim
