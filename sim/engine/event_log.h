// Everything a run did, in simulated time: the single source every output
// (summary, events.csv, Gantt chart, Chrome trace) reads. An activity's lane is a string
// (what the outputs print; a new kind shows up in every output without touching the
// renderers) and a key (what the outputs test: kind, direction, tier).
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/alloc/allocator.h"
#include "models/platform/tier.h"
#include "models/workload/op_list.h"

namespace memsim {

namespace lane {
inline constexpr const char* kCompute = "compute";
inline constexpr const char* kRecompute = "recompute";
// A swap's lane is its tier's (kTierRows: "disk_write", "host_read", ...), swap_lane.
inline constexpr const char* kStall = "stall";
// A data-parallel collective this GPU took part in (docs/parallel.md), start to end.
inline constexpr const char* kCollective = "collective";
// ZeRO-Offload (docs/parallel.md): a rank's gradients to the host and its parameters back,
// and its optimizer step on the host's CPU.
inline constexpr const char* kOffload = "offload";
inline constexpr const char* kHostOptimizer = "host_optimizer";
}  // namespace lane

// What an activity's lane is, set where the activity is made: its lane string is the
// rendering of it (swap_lane, NodeUsage's resource lanes), done once there, and the
// outputs read these fields instead of decoding the string. Swap: a GPU's swap to or
// from a tier; Link: a request's or a collective's flow on a link of a GPU's route to the
// host; PeerLink: a collective's flow on a link only GPU-to-GPU routes cross (NVLink);
// Disk: an I/O on a tier's device; Other: every lane without a resource or tier
// (compute, stall, collective, ...).
enum class LaneKind : std::uint8_t { Other, Swap, Link, PeerLink, Disk };
// Out: from the GPU towards the tier (a swap-out, d2h, a device write, a link's tx); In: back.
enum class Direction : std::uint8_t { None, Out, In };
struct LaneKey {
    LaneKind kind = LaneKind::Other;
    Direction direction = Direction::None;
    // A swap's tier; on a link, the tier of the request crossing it (kNoTier for a
    // collective's or the offloaded optimizer's flow); on a device, the device's tier.
    TierId tier = kNoTier;
};

// The lane a swap's key renders to: its tier's row's ("host_write", "disk_read", ...).
inline const char* swap_lane(const LaneKey& key) {
    const TierRow& row = tier_row(key.tier);
    return key.direction == Direction::Out ? row.lane_out : row.lane_in;
}

// A resource lane of the node (docs/tiers.md): "<link> d2h" / "<link> h2d" for the
// time a request's flow was on a link of its route (GPU to host / host to GPU),
// "<device> write" / "<device> read" for a device's I/O, "<link> tx" / "rx" on a
// GPU-to-GPU link (NVLink). Their names come from the platform, so they are kept by the
// log's LabelStore. A request's resource activities follow its own activity in the log.
inline bool is_resource_lane(const LaneKey& key) {
    return key.kind == LaneKind::Link || key.kind == LaneKind::PeerLink || key.kind == LaneKind::Disk;
}

// Instant events (no duration): a decision the memory manager took at one moment.
namespace mark {
inline constexpr const char* kEvictToDisk = "evict_to_disk";  // a tensor chosen to leave memory through a write (to its tier)
inline constexpr const char* kDrop = "drop";                  // a tensor freed to be recomputed later
inline constexpr const char* kCancelWrite = "cancel_write";   // a queued swap-out dropped: its tensor was needed
}  // namespace mark

// An activity's lane is a view of a string literal (one of the lane::k* constants or
// another), and its label a view of the log's own copy (EventLog::add): no heap
// allocation per activity, as two std::string members cost for long operator names.
struct Activity {
    std::string_view lane;   // one of lane::k*, or any new kind (a string literal)
    double start_ms = 0.0;
    double end_ms = 0.0;
    int op = -1;             // operator index the activity belongs to (-1: none)
    std::string_view label;  // operator name, or a short description (kept by the log)
    OpList<int, 2> tensors;  // most activities name one or two: no heap block (models/workload/op_list.h)
    std::uint64_t bytes = 0;
    // The tensor the activity is for when `tensors` does not say it alone: the one a
    // stall waits for, the one a recomputation was started to regenerate (-1: unknown).
    int for_tensor = -1;
    int gpu = 0;  // the GPU whose run did it (docs/tiers.md; 0 on a single GPU)
    LaneKey key{};  // what `lane` renders
};

// A swap's activity to (`write`) or from `tier`, its lane rendered from its key.
inline Activity swap_activity(TierId tier, bool write, double start_ms, double end_ms, int op, std::string_view label,
                              OpList<int, 2> tensors, std::uint64_t bytes) {
    const LaneKey key{LaneKind::Swap, write ? Direction::Out : Direction::In, tier};
    Activity a{swap_lane(key), start_ms, end_ms, op, label, std::move(tensors), bytes};
    a.key = key;
    return a;
}

struct Mark {
    std::string kind;  // one of mark::k*, or any new kind
    double time_ms = 0.0;
    int op = -1;       // operator running or about to run (-1: none)
    int tensor = -1;
    std::uint64_t bytes = 0;
    int gpu = 0;
    TierId tier = kNoTier;  // where an evicted tensor was written (evict_to_disk)
};

// A tensor's memory taken (resident = true) or given back: with the workload's tensor
// kinds this gives memory by kind (weights, activations, gradients, scratch, in flight).
struct ResidencyChange {
    double time_ms = 0.0;
    int tensor = -1;
    bool resident = false;
    int gpu = 0;
};

struct MemorySample {
    double time_ms = 0.0;
    std::uint64_t bytes_in_use = 0;  // allocator footprint after the event
    std::uint64_t live_bytes = 0;    // exact live tensor bytes
    std::uint64_t allocated_bytes = 0;  // bytes in blocks the allocator handed out (torch_caching; else bytes_in_use)
    int gpu = 0;
};

// Host RAM in use after an event on the node of docs/tiers.md (swapped tensors and
// bounce buffers).
struct HostSample {
    double time_ms = 0.0;
    std::uint64_t bytes_in_use = 0;
};

// What a segment-modelling allocator did (torch_caching), when and during which op: the
// source of memory_snapshot.pickle.
struct AllocatorRecord {
    double time_ms = 0.0;
    int op = -1;
    AllocatorEvent event;
    int gpu = 0;
};

// Where the log keeps its activities' labels: appended to large blocks (one heap
// allocation per block, not per label) that never move, so the views stay valid; a
// copy of the log shares the blocks.
class LabelStore {
public:
    std::string_view keep(std::string_view text) {
        if (text.empty()) return {};
        if (text.size() > kBlockBytes - used_) {
            blocks_.emplace_back(new char[std::max(kBlockBytes, text.size())]);
            used_ = 0;
        }
        char* at = blocks_.back().get() + used_;
        std::copy(text.begin(), text.end(), at);
        used_ += text.size();
        return {at, text.size()};
    }
    // Keeps `other`'s blocks alive as long as this store: the views into them that
    // another log's records hold stay valid once moved here (EventLog::append_gpu).
    void adopt(const LabelStore& other) {
        // Before this store's own blocks: the last block is the one still filled.
        blocks_.insert(blocks_.begin(), other.blocks_.begin(), other.blocks_.end());
    }

private:
    static constexpr std::size_t kBlockBytes = 64 * 1024;
    std::vector<std::shared_ptr<char[]>> blocks_;
    std::size_t used_ = kBlockBytes;  // the first label opens a block
};

struct EventLog {
    std::vector<Activity> activities;
    std::vector<MemorySample> memory;
    std::optional<std::uint64_t> budget_bytes;
    double forward_end_ms = -1.0;  // when the forward pass ended (-1: unknown)
    std::vector<Mark> marks;                // in log order
    std::vector<ResidencyChange> residency; // in log order; empty when the engine does not record it
    std::vector<AllocatorRecord> allocator_events;  // in log order; empty unless the allocator models segments
    std::vector<HostSample> host_memory;    // in log order; empty without a host tier
    bool reports_allocated = false;  // the allocator's allocated bytes differ from its footprint (torch_caching)
    LabelStore labels;                      // the text the activities' labels view
    // A run whose caller reads only its summary records nothing (EngineConfig::record_events);
    // the summary does not read the log. Call sites that build a record at a cost test it first.
    bool recording = true;
    // The node of docs/tiers.md (platform.host.link or platform.file): how many GPUs;
    // every other GPU's records follow GPU 0's, each GPU's in its own log order.
    bool node = false;
    int gpus = 1;
    std::optional<std::uint64_t> host_capacity_bytes;  // platform.host.memory (none: unlimited or no host tier)
    // Per GPU on a node: the links of its route to the host ("pcie0+switch0") and back.
    std::vector<std::string> route_d2h, route_h2d;
    std::vector<std::string> resource_lanes;  // the node's resource lanes in the platform's order

    void add(Activity a) {
        if (!recording) return;
        a.label = labels.keep(a.label);
        activities.push_back(std::move(a));
    }
    void mark(std::string kind, double time_ms, int op, int tensor, std::uint64_t bytes, TierId tier = kNoTier) {
        if (!recording) return;
        marks.push_back({std::move(kind), time_ms, op, tensor, bytes, 0, tier});
    }
    void resident(double time_ms, int tensor, bool is_resident) {
        if (recording) residency.push_back({time_ms, tensor, is_resident});
    }
    void sample(double time_ms, std::uint64_t in_use, std::uint64_t live, std::uint64_t allocated) {
        // Every change is kept (several per instant too): the curve must show transient peaks.
        if (!recording) return;
        if (!memory.empty() && memory.back().bytes_in_use == in_use && memory.back().live_bytes == live &&
            memory.back().allocated_bytes == allocated)
            return;
        memory.push_back({time_ms, in_use, live, allocated});
    }
    // Appends GPU `gpu`'s own log (recorded with gpu 0 everywhere) to this node log.
    void append_gpu(EventLog&& other, int gpu) {
        labels.adopt(other.labels);
        const auto append = [gpu](auto& to, auto& from) {
            for (auto& record : from) record.gpu = gpu;
            to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
        };
        append(activities, other.activities);
        append(marks, other.marks);
        append(memory, other.memory);
        append(residency, other.residency);
        append(allocator_events, other.allocator_events);
    }
};

}  // namespace memsim
