// The state of the torch_caching model: blocks, the small and large pools of free blocks,
// segments and the device's address space, and the rules that change them
// (docs/torch_allocator.md). It is a value: copying it is how the allocator answers
// "what would the footprint be if ..." without changing itself.
//
// The rules follow c10/cuda/CUDACachingAllocator.cpp of pytorch/pytorch at commit
// 001074d25084fdb87a799823e395a50f5ec044d3 (its DeviceCachingAllocator: malloc,
// get_free_block, should_split, alloc_found_block, free_block, try_merge_blocks,
// garbage_collect_cached_blocks, release_available_cached_blocks, release_cached_blocks,
// and the expandable-segment functions), for one device and one stream, without CUDA
// graphs' private pools and without cross-stream events (a free completes at once).
// Written from that source's rules; no code is copied.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "models/alloc/allocator.h"
#include "models/alloc/torch_alloc_conf.h"

namespace memsim::torch {

using BlockId = int;
inline constexpr BlockId kNoBlock = -1;

struct Block {
    std::uint64_t address = 0;
    std::uint64_t size = 0;
    std::uint64_t requested = 0;  // bytes asked for (the trace's alloc size)
    bool small = false;           // its pool
    bool allocated = false;
    bool mapped = true;           // false: unmapped address space of an expandable segment
    BlockId prev = kNoBlock;      // neighbours in its segment
    BlockId next = kNoBlock;
    std::int64_t gc_count_base = 0;  // the pool's lookup count when it was cached
    int expandable = -1;             // its expandable segment, -1: a cudaMalloc segment
    TensorId tensor = -1;
    bool live = true;  // false: a recycled slot
    [[nodiscard]] bool is_split() const { return prev != kNoBlock || next != kNoBlock; }
};

struct Pool {
    bool small = false;
    std::set<std::tuple<std::uint64_t, std::uint64_t, BlockId>> blocks;  // free, mapped: (size, address)
    std::set<std::pair<std::uint64_t, BlockId>> unmapped;                 // by address
    std::int64_t lookups = 0;  // get_free_block calls while the garbage collector is on (block ages)
};

struct ExpandableSegment {
    std::uint64_t base = 0;
    std::uint64_t page = 0;   // 2 MiB (small pool) or 20 MiB (large pool)
    std::uint64_t pages = 0;  // address space reserved, in pages
    bool small = false;
};

// What one malloc asks for.
struct Request {
    std::uint64_t bytes = 0;    // as requested
    std::uint64_t rounded = 0;  // round_size
    std::uint64_t alloc_size = 0;
    bool small = false;
    TensorId tensor = -1;
};

class State {
public:
    State(TorchAllocConf conf, std::optional<std::uint64_t> capacity);

    // PyTorch's malloc: a cached block, else (after garbage collection) a new segment,
    // else the same after freeing oversize cached blocks, else after freeing every
    // cached segment. False: out of memory (the cached segments are freed by then).
    bool malloc(std::uint64_t bytes, TensorId tensor);
    void free(TensorId tensor);

    [[nodiscard]] Request request(std::uint64_t bytes, TensorId tensor) const;
    [[nodiscard]] bool holds(TensorId tensor) const {
        return tensor >= 0 && static_cast<std::size_t>(tensor) < by_tensor_.size() && by_tensor_[tensor] != kNoBlock;
    }
    [[nodiscard]] const Block& block_of(TensorId tensor) const { return blocks_[by_tensor_[tensor]]; }
    [[nodiscard]] const Block& block(BlockId id) const { return blocks_[id]; }
    [[nodiscard]] const Pool& pool(bool small) const { return pools_[small ? 0 : 1]; }
    [[nodiscard]] const TorchAllocConf& conf() const { return conf_; }
    [[nodiscard]] std::optional<std::uint64_t> capacity() const { return capacity_; }
    // Would `malloc(bytes)` be served from a cached block? (No side effect.)
    [[nodiscard]] bool cached_fit(std::uint64_t bytes) const;
    [[nodiscard]] bool gc_on() const { return capacity_ && conf_.garbage_collection_threshold > 0.0; }

    std::uint64_t reserved = 0;   // bytes in segments (total_allocated_memory)
    std::uint64_t allocated = 0;  // bytes in allocated blocks
    std::uint64_t segment_allocations = 0;  // cudaMalloc calls and expandable mappings
    std::uint64_t segment_count = 0;        // segments held now, as segments() lists them
    std::vector<AllocatorEvent> events;     // since the caller last took them

    // Segments as PyTorch's snapshot lists them: a cudaMalloc segment, or a mapped range
    // of an expandable one; (first block, bytes).
    [[nodiscard]] std::vector<std::pair<BlockId, std::uint64_t>> segments() const;
    [[nodiscard]] std::uint64_t largest_free_block() const;

private:
    friend struct StateAccess;
    BlockId new_block(const Block& b);
    void delete_block(BlockId id);
    Pool& pool_of(const Block& b) { return pools_[b.small ? 0 : 1]; }
    void cache(BlockId id);  // into its pool's free blocks, age restarted
    void uncache(BlockId id);
    void emit(const char* action, const Block& b, std::uint64_t size, std::uint64_t block_size = 0);

    // torch_state.cpp: blocks, merging, releasing segments
    [[nodiscard]] std::optional<BlockId> find_free_block(const Request& r) const;
    std::optional<BlockId> get_free_block(const Request& r);
    [[nodiscard]] bool should_split(const Block& b, std::uint64_t rounded) const;
    BlockId take_block(BlockId id, const Request& r);
    void free_block(BlockId id);
    std::uint64_t try_merge(BlockId dst, BlockId src);
    void release_block(BlockId id);
    void release_blocks(bool small);
    void release_cached_blocks();
    std::uint64_t device_malloc(std::uint64_t bytes);
    void device_free(std::uint64_t address);

    // torch_malloc.cpp: new segments, garbage collection, oversize release
    bool alloc_block(const Request& r, BlockId& out);
    bool release_available_cached_blocks(const Request& r);
    void garbage_collect_cached_blocks();

    // torch_expandable.cpp
    BlockId find_expandable_block(bool small, std::uint64_t bytes);
    bool map_block(BlockId id, std::uint64_t bytes);
    BlockId try_allocate_expandable_block(const Request& r);
    void unmap_block(BlockId id);
    [[nodiscard]] std::uint64_t mapped_at(BlockId id) const { return id != kNoBlock && blocks_[id].mapped ? 1 : 0; }
    void release_expandable_segment(BlockId id);

    TorchAllocConf conf_;
    std::optional<std::uint64_t> capacity_;  // the device's memory (the run's budget); none: unlimited
    std::vector<Block> blocks_;
    std::vector<BlockId> free_slots_;
    Pool pools_[2];
    std::vector<ExpandableSegment> expandables_;
    std::map<std::uint64_t, std::uint64_t> device_ranges_;  // address -> bytes taken from the device
    std::vector<BlockId> by_tensor_;
};

// The device's first address: like a CUDA virtual address, below 2^53 (exact in JSON and doubles).
inline constexpr std::uint64_t kDeviceBase = 0x7f0000000000ULL;

}  // namespace memsim::torch
