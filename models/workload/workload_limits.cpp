#include "models/workload/workload_limits.h"

#include <unistd.h>

#include <cmath>

#include <fmt/format.h>

#include "models/checked_math.h"
#include "models/workload/input_error.h"

namespace memsim {

void check_workload_limits(const Workload& w) {
    std::uint64_t bytes = 0;
    for (const Tensor& t : w.tensors) {
        if (t.alias_of >= 0) continue;
        const auto sum = checked_add(bytes, t.bytes);
        if (!sum || *sum > kMaxTotalBytes)
            throw InputError(fmt::format("{}: tensor '{}' ({} bytes) brings the workload's total tensor bytes past 2^53 "
                                         "= {} (the most memsim accounts exactly)",
                                         w.source, t.name, t.bytes, kMaxTotalBytes));
        bytes = *sum;
    }
    double ms = 0.0;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const double cost = w.ops[i].cost_ms;
        ms += cost;
        if (!std::isfinite(cost) || cost < 0 || !(ms <= kMaxComputeMs))
            throw InputError(fmt::format("{}: op {} ({}): cost {} ms brings the iteration's compute time past {:g} ms",
                                         w.source, i, w.ops[i].name, cost, kMaxComputeMs));
    }
}

void check_workload_fits_memory(std::size_t ops, std::size_t tensors, const std::string& what) {
    // Measured order of magnitude: an op with its vectors and the engine's per-op state is a
    // few hundred bytes, a tensor about a hundred; 1 KiB per element leaves room for both.
    constexpr double kBytesPerElement = 1024.0;
    const double need = (static_cast<double>(ops) + static_cast<double>(tensors)) * kBytesPerElement;
    const double have = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
    if (have > 0 && need > have / 2)
        throw InputError(fmt::format("{}: {} operators and {} tensors need about {:.1f} GiB, more than half of this "
                                     "machine's {:.1f} GiB of memory",
                                     what, ops, tensors, need / (1 << 30), have / (1 << 30)));
}

}  // namespace memsim
