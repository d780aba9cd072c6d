#include "sim/report/torch_snapshot_output.h"

#include <cmath>
#include <iterator>
#include <map>

#include "models/alloc/torch_alloc_conf.h"
#include "models/io/atomic_file.h"

namespace memsim {

namespace {

struct Range {
    std::uint64_t size = 0;
    bool small = false;
    bool expandable = false;
    SnapshotStack frames;
};

struct LiveBlock {
    std::uint64_t size = 0;
    std::uint64_t requested = 0;
    SnapshotStack frames;
};

// The segments as PyTorch lists them: a cudaMalloc segment, or a maximal mapped range of
// an expandable one (neighbouring mappings of the same pool join).
void map_range(std::map<std::uint64_t, Range>& segments, std::uint64_t address, Range r) {
    auto next = segments.find(address + r.size);
    if (next != segments.end() && next->second.expandable && next->second.small == r.small) {
        r.size += next->second.size;
        segments.erase(next);
    }
    auto it = segments.lower_bound(address);
    if (it != segments.begin()) {
        auto prev = std::prev(it);
        if (prev->second.expandable && prev->second.small == r.small && prev->first + prev->second.size == address) {
            prev->second.size += r.size;
            return;
        }
    }
    segments.emplace(address, std::move(r));
}

void unmap_range(std::map<std::uint64_t, Range>& segments, std::uint64_t address, std::uint64_t size) {
    auto it = segments.upper_bound(address);
    if (it == segments.begin()) return;
    --it;
    const std::uint64_t start = it->first;
    Range whole = it->second;
    if (start + whole.size < address + size) return;
    segments.erase(it);
    if (address > start) {
        Range left = whole;
        left.size = address - start;
        segments.emplace(start, std::move(left));
    }
    if (start + whole.size > address + size) {
        Range right = whole;
        right.size = start + whole.size - (address + size);
        right.frames = nullptr;
        segments.emplace(address + size, std::move(right));
    }
}

}  // namespace

MemorySnapshot snapshot_from_log(const EventLog& log, const Workload* workload, const std::string& alloc_conf) {
    const auto frames = [&](int op) -> SnapshotStack {
        if (op < 0) return nullptr;
        return std::make_shared<const std::vector<SnapshotFrame>>(std::vector<SnapshotFrame>{
            {workload ? workload->name : std::string("memsim"), op,
             workload && op < static_cast<int>(workload->ops.size()) ? workload->ops[op].name : "op " + std::to_string(op)}});
    };
    MemorySnapshot s;
    const TorchAllocConf conf = parse_torch_alloc_conf(alloc_conf);
    s.alloc_conf = alloc_conf;
    s.max_split_size = conf.max_split_size;
    s.garbage_collection_threshold = conf.garbage_collection_threshold;
    s.expandable_segments = conf.expandable_segments;
    std::map<std::uint64_t, Range> segments;
    std::map<std::uint64_t, LiveBlock> blocks;
    auto& trace = s.device_traces.emplace_back();
    for (const AllocatorRecord& r : log.allocator_events) {
        if (r.gpu != 0) continue;  // GPU 0's device on a node of several GPUs (docs/tiers.md)
        const AllocatorEvent& e = r.event;
        const std::string action = e.action;
        if (action == "segment_alloc") segments[e.address] = {e.size, e.small_pool, false, frames(r.op)};
        else if (action == "segment_free") segments.erase(e.address);
        else if (action == "segment_map") map_range(segments, e.address, {e.size, e.small_pool, true, frames(r.op)});
        else if (action == "segment_unmap") unmap_range(segments, e.address, e.size);
        else if (action == "alloc") blocks[e.address] = {e.block_size, e.size, frames(r.op)};
        else if (action == "free_completed") blocks.erase(e.address);
        SnapshotTraceEntry entry;
        entry.action = action;
        entry.addr = e.address;
        entry.size = e.size;
        entry.time_us = std::llround(r.time_ms * 1000.0);
        entry.frames = frames(r.op);
        trace.push_back(std::move(entry));
    }
    for (const auto& [address, range] : segments) {
        SnapshotSegment seg;
        seg.address = address;
        seg.total_size = range.size;
        seg.segment_type = range.small ? "small" : "large";
        seg.is_expandable = range.expandable;
        seg.frames = range.frames;
        std::uint64_t at = address;
        const auto gap = [&](std::uint64_t to) {
            if (to > at) seg.blocks.push_back({at, to - at, 0, "inactive", {}});
        };
        for (auto it = blocks.lower_bound(address); it != blocks.end() && it->first < address + range.size; ++it) {
            gap(it->first);
            seg.blocks.push_back({it->first, it->second.size, it->second.requested, "active_allocated", it->second.frames});
            seg.allocated_size += it->second.size;
            seg.requested_size += it->second.requested;
            at = it->first + it->second.size;
        }
        gap(address + range.size);
        seg.active_size = seg.allocated_size;
        s.segments.push_back(std::move(seg));
    }
    return s;
}

void write_torch_snapshot(const EventLog& log, const Workload* workload, const std::string& alloc_conf, const std::string& path) {
    write_file_atomically(path, write_memory_snapshot(snapshot_from_log(log, workload, alloc_conf)));
}

}  // namespace memsim
