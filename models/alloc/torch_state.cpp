// torch_caching's blocks: the pools of cached blocks, best fit, splitting, merging free
// neighbours and giving whole free segments back (docs/torch_allocator.md).
#include "models/alloc/torch_state.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/alloc/torch_sizes.h"

namespace memsim::torch {

State::State(TorchAllocConf conf, std::optional<std::uint64_t> capacity) : conf_(std::move(conf)), capacity_(capacity) {
    pools_[0].small = true;
    pools_[1].small = false;
}

Request State::request(std::uint64_t bytes, TensorId tensor) const {
    Request r;
    r.bytes = bytes;
    r.rounded = round_size(bytes, conf_);
    r.small = small_pool(r.rounded);
    r.alloc_size = allocation_size(r.rounded);
    r.tensor = tensor;
    return r;
}

BlockId State::new_block(const Block& b) {
    if (!free_slots_.empty()) {
        const BlockId id = free_slots_.back();
        free_slots_.pop_back();
        blocks_[id] = b;
        return id;
    }
    blocks_.push_back(b);
    return static_cast<BlockId>(blocks_.size() - 1);
}

void State::delete_block(BlockId id) {
    blocks_[id].live = false;
    free_slots_.push_back(id);
}

void State::cache(BlockId id) {
    Block& b = blocks_[id];
    Pool& p = pool_of(b);
    b.gc_count_base = p.lookups;
    p.blocks.emplace(b.size, b.address, id);
}

void State::uncache(BlockId id) {
    const Block& b = blocks_[id];
    pool_of(b).blocks.erase({b.size, b.address, id});
}

void State::emit(const char* action, const Block& b, std::uint64_t size, std::uint64_t block_size) {
    events.push_back({action, b.tensor, b.address, size, block_size, b.small, b.expandable >= 0});
}

// Best fit: the smallest cached block of the request's pool that holds it. In an
// expandable segment a block's size counts the unmapped space after it (it can grow),
// so a later block that needs less growth may be preferred. An oversize block
// (>= max_split_size) serves only a request that is oversize too and at most 20 MiB
// smaller than it.
std::optional<BlockId> State::find_free_block(const Request& r) const {
    const Pool& p = pool(r.small);
    auto it = p.blocks.lower_bound({r.rounded, 0, kNoBlock});
    if (it == p.blocks.end()) return std::nullopt;
    const auto growable = [&](BlockId id) {
        const Block& b = blocks_[id];
        return b.size + (b.next != kNoBlock && !blocks_[b.next].mapped ? blocks_[b.next].size : 0);
    };
    if (blocks_[std::get<2>(*it)].expandable >= 0) {
        auto next = std::next(it);
        while (blocks_[std::get<2>(*it)].expandable >= 0 && next != p.blocks.end() &&
               growable(std::get<2>(*next)) < growable(std::get<2>(*it)))
            it = next++;
    }
    const Block& b = blocks_[std::get<2>(*it)];
    if (r.rounded < conf_.max_split_size && b.size >= conf_.max_split_size) return std::nullopt;
    if (r.rounded >= conf_.max_split_size && b.size >= r.rounded + kLargeBuffer) return std::nullopt;
    return std::get<2>(*it);
}

bool State::cached_fit(std::uint64_t bytes) const { return find_free_block(request(bytes, -1)).has_value(); }

std::optional<BlockId> State::get_free_block(const Request& r) {
    // Block ages are counted in lookups, and only while the garbage collector is on.
    if (gc_on()) ++pools_[r.small ? 0 : 1].lookups;
    const std::optional<BlockId> found = find_free_block(r);
    if (found) uncache(*found);
    return found;
}

// Keep the rest of a block as a free block of its own? Small pool and expandable
// segments: when at least 512 B are left; large pool: when the request is below
// max_split_size and more than 1 MiB is left.
bool State::should_split(const Block& b, std::uint64_t rounded) const {
    const std::uint64_t remaining = b.size - rounded;
    if (b.small || conf_.expandable_segments) return remaining >= kMinBlockSize;
    return rounded < conf_.max_split_size && remaining > kSmallSize;
}

// Hands out block `id` (not cached) for the request, splitting off the rest if it is kept.
BlockId State::take_block(BlockId id, const Request& r) {
    BlockId used = id;
    if (should_split(blocks_[id], r.rounded)) {
        Block front = blocks_[id];
        front.size = r.rounded;
        front.next = id;
        used = new_block(front);
        Block& rest = blocks_[id];
        if (rest.prev != kNoBlock) blocks_[rest.prev].next = used;
        rest.prev = used;
        rest.address += r.rounded;
        rest.size -= r.rounded;
        rest.tensor = -1;
        cache(id);
    }
    Block& b = blocks_[used];
    b.allocated = true;
    b.requested = r.bytes;
    b.tensor = r.tensor;
    allocated += b.size;
    if (r.tensor >= 0) {  // -1: a probe (footprint_if_allocated, out_of_memory)
        if (static_cast<std::size_t>(r.tensor) >= by_tensor_.size()) by_tensor_.resize(static_cast<std::size_t>(r.tensor) + 1, kNoBlock);
        by_tensor_[r.tensor] = used;
    }
    emit("alloc", b, r.bytes, b.size);
    return used;
}

void State::free(TensorId tensor) {
    if (!holds(tensor)) throw std::logic_error("torch_caching: tensor " + std::to_string(tensor) + " freed but not allocated");
    const BlockId id = by_tensor_[tensor];
    Block& b = blocks_[id];
    b.allocated = false;
    allocated -= b.size;
    emit("free_requested", b, b.requested, b.size);
    by_tensor_[tensor] = kNoBlock;
    free_block(id);
}

// Back into the pool, merged with free neighbours of the same mapping state.
void State::free_block(BlockId id) {
    emit("free_completed", blocks_[id], blocks_[id].requested, blocks_[id].size);
    blocks_[id].tensor = -1;
    try_merge(id, blocks_[id].prev);
    try_merge(id, blocks_[id].next);
    cache(id);
}

std::uint64_t State::try_merge(BlockId dst, BlockId src) {
    if (src == kNoBlock || blocks_[src].allocated || blocks_[dst].mapped != blocks_[src].mapped) return 0;
    const Block s = blocks_[src];
    if (s.mapped) uncache(src);
    else pool_of(s).unmapped.erase({s.address, src});
    Block& d = blocks_[dst];
    if (d.prev == src) {
        d.address = s.address;
        d.prev = s.prev;
        if (d.prev != kNoBlock) blocks_[d.prev].next = dst;
    } else {
        d.next = s.next;
        if (d.next != kNoBlock) blocks_[d.next].prev = dst;
    }
    d.size += s.size;
    delete_block(src);
    return s.size;
}

std::uint64_t State::device_malloc(std::uint64_t bytes) {
    // First fit in the device's address space, 2 MiB aligned: the lowest free range.
    std::uint64_t at = kDeviceBase;
    for (const auto& [address, size] : device_ranges_) {
        if (address >= at + bytes) break;
        at = std::max(at, (address + size + kRoundLarge - 1) / kRoundLarge * kRoundLarge);
    }
    device_ranges_.emplace(at, bytes);
    return at;
}

void State::device_free(std::uint64_t address) { device_ranges_.erase(address); }

// A whole free cudaMalloc segment back to the device.
void State::release_block(BlockId id) {
    const Block& b = blocks_[id];
    if (b.expandable >= 0 || b.is_split() || b.allocated)
        throw std::logic_error("torch_caching: releasing a block that is not a whole free segment");
    emit("segment_free", b, b.size);
    device_free(b.address);
    reserved -= b.size;
    --segment_count;
    uncache(id);
    delete_block(id);
}

// Every cached block that is a whole segment goes back; in expandable segments the
// whole free pages of every cached block are unmapped, and a segment left with no
// mapped page is given back.
void State::release_blocks(bool small) {
    std::vector<BlockId> whole, to_unmap;
    for (const auto& entry : pool(small).blocks) {
        const BlockId id = std::get<2>(entry);
        if (blocks_[id].expandable >= 0) to_unmap.push_back(id);
        else if (!blocks_[id].is_split()) whole.push_back(id);
    }
    for (BlockId id : whole) release_block(id);
    for (BlockId id : to_unmap) {
        unmap_block(id);
        if (blocks_[id].live && !blocks_[id].is_split()) release_expandable_segment(id);
    }
}

void State::release_cached_blocks() {
    release_blocks(false);
    release_blocks(true);
}

std::vector<std::pair<BlockId, std::uint64_t>> State::segments() const {
    std::vector<std::pair<BlockId, std::uint64_t>> out;
    for (BlockId id = 0; id < static_cast<BlockId>(blocks_.size()); ++id) {
        const Block& b = blocks_[id];
        if (!b.live || !b.mapped || (b.prev != kNoBlock && blocks_[b.prev].mapped)) continue;
        std::uint64_t bytes = 0;
        for (BlockId at = id; at != kNoBlock && blocks_[at].mapped; at = blocks_[at].next) bytes += blocks_[at].size;
        out.emplace_back(id, bytes);
    }
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return blocks_[a.first].address < blocks_[b.first].address; });
    return out;
}

std::uint64_t State::largest_free_block() const {
    std::uint64_t largest = 0;
    for (const Pool& p : pools_)
        if (!p.blocks.empty()) largest = std::max(largest, std::get<0>(*p.blocks.rbegin()));
    return largest;
}

}  // namespace memsim::torch
