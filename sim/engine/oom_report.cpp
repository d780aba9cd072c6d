#include "sim/engine/oom_report.h"

#include <algorithm>

#include <fmt/format.h>

namespace memsim {

namespace {

std::string why_not_evictable(const Workload& w, const TensorTable& tensors, TensorId t, bool has_eviction_policy) {
    const TensorState& st = tensors[t];
    const Tensor& tensor = w.tensors[t];
    if (tensor.scratch) return "scratch";
    if (tensor.constant || tensor.producer == kNoOp) return "constant";
    if (st.locks > 0) return "locked";
    if (st.writing || st.reading) return "in I/O";
    if (!has_eviction_policy) return "no eviction policy";
    return "no later use: an output or awaiting its release";
}

}  // namespace

std::string oom_message(const Workload& w, const TensorTable& tensors, const Allocator& allocator, std::uint64_t budget,
                        std::uint64_t bytes, int op, const std::function<bool(TensorId)>& evictable, bool has_eviction_policy) {
    std::uint64_t pinned = 0;
    std::vector<TensorId> held;
    for (TensorId t = 0; t < tensors.size(); ++t)
        if (tensors[t].where == Where::Resident && !evictable(t) && w.tensors[t].alias_of < 0) {
            pinned += w.tensors[t].bytes;
            held.push_back(t);
        }
    // The largest non-evictable tensors and why each cannot go.
    std::sort(held.begin(), held.end(), [&](TensorId a, TensorId b) {
        return w.tensors[a].bytes != w.tensors[b].bytes ? w.tensors[a].bytes > w.tensors[b].bytes : a < b;
    });
    std::vector<std::string> largest;
    for (std::size_t k = 0; k < std::min<std::size_t>(3, held.size()); ++k)
        largest.push_back(fmt::format("{} {} B ({})", w.tensors[held[k]].name, w.tensors[held[k]].bytes,
                                      why_not_evictable(w, tensors, held[k], has_eviction_policy)));
    // Before op 0 the tensors resident from the start (constants) are being placed. A pool
    // or a planned arena grows by more than the tensor: say by how much.
    const std::string where = op >= 0 ? fmt::format("at op {} ({})", op, w.ops[op].name)
                                      : std::string("before the first operator (placing the tensors resident from the start)");
    const std::uint64_t now = allocator.footprint_bytes(), after = allocator.footprint_if_allocated(bytes);
    const std::string growth =
        now > budget                         ? std::string(" (over the budget already: a planned arena is laid out whole)")
        : after > now && after - now != bytes ? fmt::format(" ({} B with it: the allocator grows by {} B)", after, after - now)
                                              : std::string();
    return fmt::format("out of memory {}: needs {} B more, budget {} B, footprint {} B{}, non-evictable resident {} B{}{}", where,
                       bytes, budget, now, growth, pinned, largest.empty() ? "" : "; largest: ", fmt::join(largest, ", "));
}

}  // namespace memsim
