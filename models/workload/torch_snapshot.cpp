#include "models/workload/torch_snapshot.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/workload/forward_end.h"
#include "models/workload/input_error.h"
#include "models/workload/workload_limits.h"

namespace memsim {

namespace {

// An operator is named after the innermost frame of its allocation, else its number.
std::string op_name(const SnapshotTraceEntry& e, std::size_t index) {
    if (!e.frames || e.frames->empty()) return fmt::format("alloc {}", index);
    const SnapshotFrame& f = e.frames->front();
    const std::size_t slash = f.filename.find_last_of('/');
    return fmt::format("alloc {} {}:{}:{}", index, slash == std::string::npos ? f.filename : f.filename.substr(slash + 1), f.line, f.name);
}

bool is_segment_action(const std::string& a) {
    return a == "segment_alloc" || a == "segment_free" || a == "segment_map" || a == "segment_unmap";
}

}  // namespace

SnapshotWorkload snapshot_workload(const MemorySnapshot& s, const std::string& path) {
    std::vector<std::size_t> with_events;
    for (std::size_t d = 0; d < s.device_traces.size(); ++d)
        if (!s.device_traces[d].empty()) with_events.push_back(d);
    if (with_events.empty())
        throw InputError(fmt::format("{}: the snapshot has no trace of allocations: record it with "
                                     "torch.cuda.memory._record_memory_history() before the run", path));
    if (with_events.size() > 1)
        throw InputError(fmt::format("{}: the snapshot traces devices {}: memsim replays one device; save one snapshot per device",
                                     path, fmt::join(with_events, ", ")));
    const std::size_t device = with_events.front();
    const std::vector<SnapshotTraceEntry>& trace = s.device_traces[device];

    SnapshotWorkload out;
    RecordedAllocator& rec = out.recorded;
    rec.device = static_cast<std::int64_t>(device);
    rec.trace_entries = trace.size();
    rec.alloc_conf = s.alloc_conf;
    Workload& w = out.workload;
    w.source = path;
    const std::size_t slash = path.find_last_of('/');
    w.name = slash == std::string::npos ? path : path.substr(slash + 1);

    // Reserved bytes when the trace began: the segments at the end, less what the trace added.
    std::int64_t reserved = 0;
    for (const SnapshotSegment& seg : s.segments)
        if (seg.device == static_cast<std::int64_t>(device)) reserved += static_cast<std::int64_t>(seg.total_size);
    for (const SnapshotTraceEntry& e : trace) {
        if (e.action == "segment_alloc" || e.action == "segment_map") reserved -= static_cast<std::int64_t>(e.size);
        if (e.action == "segment_free" || e.action == "segment_unmap") reserved += static_cast<std::int64_t>(e.size);
    }
    if (reserved < 0)
        throw InputError(fmt::format("{}: the trace takes {} B more segment memory than the segments hold at its end: the "
                                     "segments and the trace do not belong together", path, -reserved));
    rec.reserved_at_start = static_cast<std::uint64_t>(reserved);
    rec.reserved_peak_bytes = rec.reserved_at_start;

    // Address -> tensor, in address order: live blocks may not overlap (a device address
    // is one block's at a time), so a trace whose blocks do is refused, not replayed.
    std::map<std::uint64_t, TensorId> live;
    std::vector<std::size_t> allocated_at;  // per tensor: its alloc's index in the trace
    // The live block [addr, addr + size) overlaps, if any.
    // Addresses and sizes are at most 2^53 (the reader's limit): their sums do not wrap.
    const auto overlapping = [&](std::uint64_t addr, std::uint64_t size) -> std::optional<std::pair<std::uint64_t, TensorId>> {
        auto next = live.lower_bound(addr);
        if (next != live.end() && next->first < addr + size) return *next;
        if (next != live.begin()) {
            const auto prev = std::prev(next);
            if (prev->first + w.tensors[prev->second].bytes > addr) return *prev;
        }
        return std::nullopt;
    };
    std::set<std::int64_t> streams;
    std::uint64_t live_bytes = 0;
    std::vector<TensorId> pending_release;  // freed before the first allocation's operator exists
    double last_time_us = -1;
    const auto at = [&](std::size_t i) { return fmt::format("{}: device_traces[{}][{}]", path, device, i); };
    const auto new_tensor = [&](std::uint64_t bytes, std::uint64_t address, int producer) {
        Tensor t;
        t.name = fmt::format("0x{:x}#{}", address, w.tensors.size());
        t.bytes = bytes;
        t.producer = producer;
        t.constant = producer == kNoOp;
        w.tensors.push_back(std::move(t));
        return static_cast<TensorId>(w.tensors.size() - 1);
    };
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const SnapshotTraceEntry& e = trace[i];
        if (is_segment_action(e.action)) {
            rec.segment_events.emplace_back(e.action, e.size);
            const bool grows = e.action == "segment_alloc" || e.action == "segment_map";
            reserved += grows ? static_cast<std::int64_t>(e.size) : -static_cast<std::int64_t>(e.size);
            if (reserved < 0) throw InputError(fmt::format("{}: frees more segment memory than is held", at(i)));
            rec.reserved_peak_bytes = std::max(rec.reserved_peak_bytes, static_cast<std::uint64_t>(reserved));
        } else if (e.action == "oom") {
            ++rec.ooms;
        } else if (e.action == "alloc") {
            if (e.size == 0) continue;  // PyTorch hands out no block for 0 bytes
            if (live.count(e.addr))
                throw InputError(fmt::format("{}: alloc at address 0x{:x}, which is already allocated and not freed", at(i), e.addr));
            if (const auto other = overlapping(e.addr, e.size))
                throw InputError(fmt::format("{}: alloc of {} B at 0x{:x} overlaps the live block of {} B at 0x{:x} (allocated at "
                                             "[{}] and not freed)",
                                             at(i), e.size, e.addr, w.tensors[other->second].bytes, other->first,
                                             allocated_at[other->second]));
            streams.insert(e.stream);
            Op op;
            op.name = op_name(e, w.ops.size());
            if (e.time_us) {  // the previous operator lasts until this allocation
                if (last_time_us >= 0 && !w.ops.empty())
                    w.ops.back().cost_ms = std::max(0.001, (static_cast<double>(*e.time_us) - last_time_us) / 1000.0);
                last_time_us = static_cast<double>(*e.time_us);
            }
            op.cost_ms = 0.001;
            const TensorId t = new_tensor(e.size, e.addr, static_cast<int>(w.ops.size()));
            allocated_at.resize(w.tensors.size());
            allocated_at[t] = i;
            op.outputs.push_back(t);
            if (w.ops.empty()) op.release = std::move(pending_release);
            w.ops.push_back(std::move(op));
            live[e.addr] = t;
            live_bytes += e.size;
            rec.requested_peak_bytes = std::max(rec.requested_peak_bytes, live_bytes);
        } else if (e.action == "free_completed") {
            if (e.size == 0) continue;
            TensorId t = -1;
            if (const auto it = live.find(e.addr); it != live.end()) {
                t = it->second;
                if (e.size != w.tensors[t].bytes)
                    throw InputError(fmt::format("{}: free_completed of {} B at 0x{:x}, which was allocated with {} B at [{}]",
                                                 at(i), e.size, e.addr, w.tensors[t].bytes, allocated_at[t]));
                live.erase(it);
                live_bytes -= w.tensors[t].bytes;
            } else {  // allocated before the trace began: resident from the start
                if (const auto other = overlapping(e.addr, e.size))
                    throw InputError(fmt::format("{}: free_completed of {} B at 0x{:x}, a block from before the trace, overlaps the "
                                                 "live block of {} B at 0x{:x} (allocated at [{}])",
                                                 at(i), e.size, e.addr, w.tensors[other->second].bytes, other->first,
                                                 allocated_at[other->second]));
                t = new_tensor(e.size, e.addr, kNoOp);
                rec.live_at_start += e.size;
            }
            if (w.ops.empty()) pending_release.push_back(t);
            else w.ops.back().release.push_back(t);
        }
    }
    if (w.ops.empty())
        throw InputError(fmt::format("{}: the trace of device {} holds no allocation to replay", path, device));
    std::vector<TensorId> held;  // still held at the end: released after the last operator, in tensor order
    for (const auto& [address, t] : live) held.push_back(t);
    std::sort(held.begin(), held.end());
    w.ops.back().release.insert(w.ops.back().release.end(), held.begin(), held.end());
    rec.streams = streams.size();
    const ForwardEndGuess guess = infer_forward_end(w);
    w.forward_end = std::max(1, guess.forward_end);
    w.forward_end_rule = guess.rule;
    check_workload_limits(w);
    return out;
}

SnapshotWorkload load_torch_snapshot(const std::string& path) { return snapshot_workload(read_memory_snapshot(path), path); }

}  // namespace memsim
