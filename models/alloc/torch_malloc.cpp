// torch_caching's malloc: a cached block, else a new segment, and what it frees when the
// device is full: old cached segments (garbage_collection_threshold), oversize cached
// blocks (max_split_size_mb), then every cached segment (docs/torch_allocator.md).
#include "models/alloc/torch_state.h"

#include <iterator>

#include "models/alloc/torch_sizes.h"

namespace memsim::torch {

bool State::malloc(std::uint64_t bytes, TensorId tensor) {
    const Request r = request(bytes, tensor);
    BlockId block = kNoBlock;
    if (const std::optional<BlockId> cached = get_free_block(r)) {
        block = *cached;
    } else {
        if (gc_on()) garbage_collect_cached_blocks();
        const bool got = alloc_block(r, block) || (release_available_cached_blocks(r) && alloc_block(r, block)) ||
                         (release_cached_blocks(), alloc_block(r, block));
        if (!got) {
            const std::uint64_t free_bytes = capacity_ && *capacity_ > reserved ? *capacity_ - reserved : 0;
            events.push_back({"oom", tensor, free_bytes, r.rounded, 0, r.small, conf_.expandable_segments});
            return false;
        }
    }
    take_block(block, r);
    return true;
}

// A new segment of the request's allocation size, if the device has room for it (with
// expandable segments: pages mapped into the pool's growing segment).
bool State::alloc_block(const Request& r, BlockId& out) {
    if (capacity_ && reserved + r.alloc_size > *capacity_) return false;
    if (conf_.expandable_segments) {
        out = try_allocate_expandable_block(r);
        return out != kNoBlock;
    }
    Block b;
    b.address = device_malloc(r.alloc_size);
    b.size = r.alloc_size;
    b.small = r.small;
    reserved += r.alloc_size;
    ++segment_allocations;
    ++segment_count;
    out = new_block(b);
    emit("segment_alloc", blocks_[out], b.size);
    return true;
}

// With max_split_size_mb set: free the smallest cached oversize block that covers the
// request (at least max_split_size), else the largest ones until their bytes do. Blocks
// of expandable segments are never freed here (PyTorch's pull request 134338, merged
// after the revision followed: without it that revision fails an internal assertion).
bool State::release_available_cached_blocks(const Request& r) {
    if (conf_.splits_unlimited()) return false;
    Pool& p = pools_[r.small ? 0 : 1];
    const std::uint64_t key = r.rounded < conf_.max_split_size ? conf_.max_split_size : r.rounded;
    auto it = p.blocks.lower_bound({key, 0, kNoBlock});
    if (it != p.blocks.end() && blocks_[std::get<2>(*it)].expandable < 0) {
        release_block(std::get<2>(*it));
        return true;
    }
    if (it == p.blocks.begin()) return false;
    std::uint64_t released = 0;
    --it;
    while (released < key && std::get<0>(*it) >= conf_.max_split_size && blocks_[std::get<2>(*it)].expandable < 0) {
        const BlockId id = std::get<2>(*it);
        released += std::get<0>(*it);
        const bool last = it == p.blocks.begin();
        if (!last) --it;
        release_block(id);
        if (last) break;
    }
    return released >= key;
}

// When the reserved bytes pass garbage_collection_threshold x capacity: free whole cached
// large-pool segments whose age (lookups in the pool since they were cached) is at least
// the average, round after round, until the excess is reclaimed or nothing is freed.
void State::garbage_collect_cached_blocks() {
    const auto threshold = static_cast<std::uint64_t>(conf_.garbage_collection_threshold * static_cast<double>(*capacity_));
    if (reserved <= threshold) return;
    const std::uint64_t target = reserved - threshold;
    Pool& large = pools_[1];
    const auto age = [&](BlockId id) { return static_cast<std::uint64_t>(large.lookups - blocks_[id].gc_count_base); };
    const auto freeable = [&](BlockId id) { return !blocks_[id].is_split() && blocks_[id].expandable < 0; };
    std::uint64_t total_age = 0;
    std::uint64_t count = 0;
    for (const auto& entry : large.blocks)
        if (freeable(std::get<2>(entry))) {
            total_age += age(std::get<2>(entry));
            ++count;
        }
    std::uint64_t reclaimed = 0;
    bool freed = true;
    while (reclaimed < target && freed && count > 0) {
        const double age_threshold = static_cast<double>(total_age) / static_cast<double>(count);
        freed = false;
        std::vector<BlockId> order;
        for (const auto& entry : large.blocks) order.push_back(std::get<2>(entry));
        for (BlockId id : order) {
            if (!freeable(id) || static_cast<double>(age(id)) < age_threshold) continue;
            freed = true;
            reclaimed += blocks_[id].size;
            total_age -= age(id);
            --count;
            release_block(id);
        }
    }
}

}  // namespace memsim::torch
