#include "models/workload/workload_limits.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "models/checked_math.h"
#include "models/io/input_file.h"
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

namespace {

struct MemoryLimit {
    double bytes = 0;  // 0: unknown
    std::string what;
};

// The memory this process may use: the machine's, or less when the address-space or data
// limit (ulimit -v, ulimit -d) or the container's memory limit (cgroup v2) is lower.
MemoryLimit memory_limit() {
    MemoryLimit limit{static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE)),
                      "this machine's memory"};
    const auto lower = [&](double bytes, const char* what) {
        if (bytes > 0 && (limit.bytes <= 0 || bytes < limit.bytes)) limit = {bytes, what};
    };
    for (const auto& [resource, what] : {std::pair{RLIMIT_AS, "the address-space limit (ulimit -v)"},
                                         std::pair{RLIMIT_DATA, "the data-segment limit (ulimit -d)"}}) {
        struct rlimit r {};
        if (::getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY) lower(static_cast<double>(r.rlim_cur), what);
    }
    try {
        const std::string text = read_input_file("/sys/fs/cgroup/memory.max", "cgroup memory limit", 4096);
        if (text.rfind("max", 0) != 0) lower(std::stod(text), "the container's memory limit (cgroup memory.max)");
    } catch (const std::exception&) {  // no cgroup v2 file, or no limit: the others apply
    }
    return limit;
}

}  // namespace

void check_workload_fits_memory(std::size_t ops, std::size_t tensors, const std::string& what) {
    // Measured order of magnitude: an op with its vectors and the engine's per-op state is a
    // few hundred bytes, a tensor about a hundred; 1 KiB per element leaves room for both.
    constexpr double kBytesPerElement = 1024.0;
    const double need = (static_cast<double>(ops) + static_cast<double>(tensors)) * kBytesPerElement;
    const MemoryLimit have = memory_limit();
    if (have.bytes > 0 && need > have.bytes / 2)
        throw InputError(fmt::format("{}: {} operators and {} tensors need about {:.1f} GiB, more than half of {}, "
                                     "{:.1f} GiB",
                                     what, ops, tensors, need / (1 << 30), have.what, have.bytes / (1 << 30)));
}

}  // namespace memsim
