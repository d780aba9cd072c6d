// The score h_DTR and h_DTR_local share: cost / (bytes x staleness), infinite when the
// denominator is not positive (no bytes, or accessed at this very instant). One
// definition, so the scan (scored_heuristic.h) and the engine's candidate index
// (sim/engine/eviction_index.h) compute the same double, bit for bit.
#pragma once

#include <limits>

namespace memsim {

inline double staleness_score(double cost, double bytes, double now_ms, double last_access_ms) {
    const double denominator = bytes * (now_ms - last_access_ms);
    return denominator > 0 ? cost / denominator : std::numeric_limits<double>::infinity();
}

}  // namespace memsim
