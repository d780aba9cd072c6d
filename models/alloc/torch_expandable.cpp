// torch_caching with expandable_segments:True: one segment per pool that reserves address
// space once and maps pages (2 MiB small pool, 20 MiB large pool) as it needs them, at
// the lowest address where the request fits; free whole pages are unmapped when the
// cache is released (docs/torch_allocator.md, "Expandable segments").
#include "models/alloc/torch_state.h"

#include <algorithm>

#include "models/alloc/torch_sizes.h"

namespace memsim::torch {

namespace {
// The device size an expandable segment reserves address space for when the run has no
// budget (PyTorch reserves 1 1/8 of the device's memory): large enough never to bind.
constexpr std::uint64_t kUnlimitedDevice = std::uint64_t{1} << 40;
}  // namespace

// The lowest place, made of free and unmapped blocks, with room for `bytes`; else a new segment.
BlockId State::find_expandable_block(bool small, std::uint64_t bytes) {
    Pool& p = pools_[small ? 0 : 1];
    const auto usable = [&](BlockId id) { return id != kNoBlock && !blocks_[id].allocated; };
    const auto room_from = [&](BlockId id) {
        std::uint64_t room = 0;
        for (; room < bytes && usable(id); id = blocks_[id].next) room += blocks_[id].size;
        return room >= bytes;
    };
    for (const auto& [address, id] : p.unmapped) {
        const BlockId start = usable(blocks_[id].prev) ? blocks_[id].prev : id;
        if (room_from(start)) return start;
    }
    ExpandableSegment es;
    es.small = small;
    es.page = expandable_page(small);
    const std::uint64_t device = capacity_ ? *capacity_ : kUnlimitedDevice;
    es.pages = (device + device / 8 + es.page - 1) / es.page;
    es.base = device_malloc(es.pages * es.page);
    expandables_.push_back(es);
    Block b;
    b.address = es.base;
    b.size = es.pages * es.page;
    b.small = small;
    b.mapped = false;
    b.expandable = static_cast<int>(expandables_.size() - 1);
    const BlockId id = new_block(b);
    p.unmapped.emplace(b.address, id);
    return id;
}

// Maps the pages under the first `bytes` of unmapped block `id`; the block joins its free
// neighbours. False when the device has no room for the pages.
bool State::map_block(BlockId id, std::uint64_t bytes) {
    const ExpandableSegment& es = expandables_[blocks_[id].expandable];
    const std::uint64_t begin = (blocks_[id].address - es.base) / es.page;
    const std::uint64_t end = (blocks_[id].address + bytes - es.base + es.page - 1) / es.page;
    const std::uint64_t mapped = (end - begin) * es.page;
    if (mapped == 0 || (capacity_ && reserved + mapped > *capacity_)) return false;
    Pool& p = pool_of(blocks_[id]);
    p.unmapped.erase({blocks_[id].address, id});
    blocks_[id].mapped = true;
    const std::uint64_t start = blocks_[id].address;
    if (mapped < blocks_[id].size) {
        Block rest = blocks_[id];
        rest.address += mapped;
        rest.size -= mapped;
        rest.mapped = false;
        rest.prev = id;
        const BlockId rest_id = new_block(rest);
        if (rest.next != kNoBlock) blocks_[rest.next].prev = rest_id;
        blocks_[id].next = rest_id;
        blocks_[id].size = mapped;
        p.unmapped.emplace(rest.address, rest_id);
    }
    // A new mapped range, unless it joins mapped neighbours (one range fewer per side).
    segment_count += 1;
    segment_count -= mapped_at(blocks_[id].prev) + mapped_at(blocks_[id].next);
    try_merge(id, blocks_[id].prev);
    try_merge(id, blocks_[id].next);
    cache(id);
    reserved += mapped;
    ++segment_allocations;
    Block shown = blocks_[id];
    shown.address = start;
    emit("segment_map", shown, mapped);
    return true;
}

BlockId State::try_allocate_expandable_block(const Request& r) {
    BlockId candidate = find_expandable_block(r.small, r.rounded);
    if (!blocks_[candidate].mapped && !map_block(candidate, std::min(blocks_[candidate].size, r.rounded))) return kNoBlock;
    while (blocks_[candidate].size < r.rounded) {
        const BlockId next = blocks_[candidate].next;
        if (!map_block(next, std::min(r.rounded - blocks_[candidate].size, blocks_[next].size))) return kNoBlock;
        candidate = next;  // it took in the block before it
    }
    uncache(candidate);
    return candidate;
}

// Unmaps the whole pages inside free block `id`; what is left on either side stays a
// free mapped block.
void State::unmap_block(BlockId id) {
    const ExpandableSegment es = expandables_[blocks_[id].expandable];
    const Block b = blocks_[id];
    const std::uint64_t first = (b.address - es.base + es.page - 1) / es.page;
    const std::uint64_t last = (b.address + b.size - es.base) / es.page;
    if (first >= last) return;
    uncache(id);
    const std::uint64_t from = es.base + first * es.page;
    const std::uint64_t bytes = (last - first) * es.page;
    if (from > b.address) {
        Block before = b;
        before.size = from - b.address;
        before.next = id;
        const BlockId before_id = new_block(before);
        if (b.prev != kNoBlock) blocks_[b.prev].next = before_id;
        blocks_[id].prev = before_id;
        cache(before_id);
    }
    if (b.address + b.size > from + bytes) {
        Block after = b;
        after.address = from + bytes;
        after.size = b.address + b.size - (from + bytes);
        after.prev = id;
        const BlockId after_id = new_block(after);
        if (b.next != kNoBlock) blocks_[b.next].prev = after_id;
        blocks_[id].next = after_id;
        cache(after_id);
    }
    // Mapped blocks on both sides: the range splits in two; on neither: it is gone.
    segment_count += mapped_at(blocks_[id].prev) + mapped_at(blocks_[id].next);
    segment_count -= 1;
    blocks_[id].address = from;
    blocks_[id].size = bytes;
    blocks_[id].mapped = false;
    reserved -= bytes;
    emit("segment_unmap", blocks_[id], bytes);
    try_merge(id, blocks_[id].prev);
    try_merge(id, blocks_[id].next);
    pool_of(blocks_[id]).unmapped.emplace(blocks_[id].address, id);
}

void State::release_expandable_segment(BlockId id) {
    const Block& b = blocks_[id];
    pool_of(b).unmapped.erase({b.address, id});
    device_free(expandables_[b.expandable].base);
    delete_block(id);
}

}  // namespace memsim::torch
