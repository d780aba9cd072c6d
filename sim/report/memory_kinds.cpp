#include "sim/report/memory_kinds.h"

#include <algorithm>
#include <map>

namespace memsim {

namespace {

MemoryKind base_kind(const Workload& w, const Tensor& t) {
    if (t.scratch) return MemoryKind::Scratch;
    switch (t.role) {
        case TensorRole::parameter: return MemoryKind::Parameters;
        case TensorRole::gradient: return MemoryKind::Gradients;
        case TensorRole::optimizer_state: return MemoryKind::OptimizerState;
        case TensorRole::activation: return MemoryKind::Activations;
        case TensorRole::input: return MemoryKind::Inputs;
        case TensorRole::other: break;
    }
    if (t.constant || t.producer == kNoOp) return MemoryKind::Weights;
    return t.producer < w.forward_end ? MemoryKind::Activations : MemoryKind::Gradients;
}

enum class Io { None, Writing, Reading };

struct Change {
    double time_ms;
    int phase;  // at one instant: I/O ends, then residency changes, then I/O begins
    std::size_t order;
    int tensor;
    int what;  // phase 1: 1 resident, 0 freed; phases 0 and 2: Io
};

}  // namespace

const char* memory_kind_name(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::Weights: return "weights / inputs";
        case MemoryKind::Activations: return "activations";
        case MemoryKind::Gradients: return "gradients";
        case MemoryKind::Scratch: return "scratch";
        case MemoryKind::SwappingOut: return "swapping out";
        case MemoryKind::SwappingIn: return "swapping in";
        case MemoryKind::Parameters: return "parameters";
        case MemoryKind::OptimizerState: return "optimizer state";
        case MemoryKind::Inputs: return "inputs";
    }
    return "?";
}

std::vector<MemoryByKindRow> memory_by_kind(const EventLog& log, const Workload& workload) {
    if (log.residency.empty()) return {};
    const auto tensor_count = static_cast<int>(workload.tensors.size());
    auto known = [&](int t) { return t >= 0 && t < tensor_count && workload.tensors[static_cast<std::size_t>(t)].alias_of < 0; };
    std::vector<Change> changes;
    std::map<int, std::vector<double>> taken_at;  // per tensor: when it took memory, in time order
    // GPU 0's memory on a node of several GPUs (each GPU's tensors have the same ids).
    for (const ResidencyChange& r : log.residency) {
        if (!known(r.tensor) || r.gpu != 0) continue;
        changes.push_back({r.time_ms, 1, changes.size(), r.tensor, r.resident ? 1 : 0});
        if (r.resident) taken_at[r.tensor].push_back(r.time_ms);
    }
    for (auto& [t, times] : taken_at) std::sort(times.begin(), times.end());
    for (const Activity& a : log.activities) {
        const bool write = a.key.kind == LaneKind::Swap && a.key.direction == Direction::Out;
        const bool read = a.key.kind == LaneKind::Swap && a.key.direction == Direction::In;
        if ((!write && !read) || a.tensors.size() != 1 || !known(a.tensors[0]) || a.gpu != 0) continue;
        const int t = a.tensors[0];
        double begin = a.start_ms;
        if (!write) {
            // A read takes its memory when it is issued, before the device starts on it.
            const std::vector<double>& times = taken_at[t];
            auto it = std::upper_bound(times.begin(), times.end(), a.start_ms);
            if (it != times.begin()) begin = *std::prev(it);
        }
        const int io = static_cast<int>(write ? Io::Writing : Io::Reading);
        changes.push_back({begin, 2, changes.size(), t, io});
        changes.push_back({a.end_ms, 0, changes.size(), t, static_cast<int>(Io::None)});
    }
    std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
        if (a.phase != b.phase) return a.phase < b.phase;
        return a.order < b.order;
    });

    std::vector<bool> resident(static_cast<std::size_t>(tensor_count), false);
    std::vector<Io> io(static_cast<std::size_t>(tensor_count), Io::None);
    auto kind_of = [&](int t) {
        const auto i = static_cast<std::size_t>(t);
        if (io[i] == Io::Writing) return MemoryKind::SwappingOut;
        if (io[i] == Io::Reading) return MemoryKind::SwappingIn;
        return base_kind(workload, workload.tensors[i]);
    };
    std::vector<MemoryByKindRow> rows;
    MemoryByKindRow row;
    for (const Change& c : changes) {
        const auto i = static_cast<std::size_t>(c.tensor);
        const std::uint64_t bytes = workload.tensors[i].bytes;
        if (resident[i]) row.bytes[static_cast<std::size_t>(kind_of(c.tensor))] -= bytes;
        if (c.phase == 1) resident[i] = c.what == 1;
        else io[i] = static_cast<Io>(c.what);
        if (resident[i]) row.bytes[static_cast<std::size_t>(kind_of(c.tensor))] += bytes;
        row.time_ms = c.time_ms;
        if (!rows.empty() && rows.back().bytes == row.bytes) continue;
        rows.push_back(row);
    }
    return rows;
}

}  // namespace memsim
