// `pool`: MNN's buffer pool (docs/semantics.md, Allocators). Sizes aligned up to 64 bytes; a free
// list by size, LIFO among equal sizes; best fit; a larger chunk is split in two
// children (used part, remainder); when every child of a chunk is free they merge
// back into it. A split child freed while its sibling is in use stays off the free
// list until the merge (MNN's behaviour, kept on purpose: it is what the device does).
// Peak = bytes ever taken from the OS.
#pragma once

#include <array>
#include <deque>
#include <set>
#include <utility>
#include <vector>

#include "models/alloc/allocator.h"

namespace memsim {

class PoolAllocator final : public Allocator {
public:
    static constexpr std::uint64_t kAlignment = 64;
    static std::uint64_t align(std::uint64_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

    [[nodiscard]] std::string name() const override { return "pool"; }
    void allocate(TensorId tensor, std::uint64_t bytes) override;
    void release(TensorId tensor) override;
    [[nodiscard]] std::uint64_t footprint_bytes() const override { return total_; }
    [[nodiscard]] std::uint64_t peak_bytes() const override { return total_; }
    [[nodiscard]] std::uint64_t footprint_if_allocated(std::uint64_t bytes) const override;
    [[nodiscard]] std::uint64_t free_neighbour_bytes(TensorId tensor) const override;

    // Introspection for tests.
    [[nodiscard]] std::size_t free_chunk_count() const;
    [[nodiscard]] std::uint64_t free_bytes() const;

private:
    struct Block;
    // Free list ordered by size, then newest first: the first entry not below
    // (bytes, newest) is the best fit, LIFO among equal sizes. Removing any block
    // (a merge takes its children off) goes through the block's own entry, so long runs
    // stay linear.
    struct FreeKey {
        std::uint64_t size;
        std::uint64_t stamp;  // when it was put on the list
        Block* block;
        bool operator<(const FreeKey& o) const { return size != o.size ? size < o.size : stamp > o.stamp; }
    };
    using FreeList = std::set<FreeKey>;
    struct Block {
        std::uint64_t size = 0;
        Block* parent = nullptr;
        int live_children = 0;
        bool on_free_list = false;
        // A split makes exactly two (the used part, the remainder), kept in place: 48 bytes
        // a block, where a std::vector of them made it 64 plus a heap block per split.
        std::array<Block*, 2> children{};  // both null until the block is split
        FreeList::iterator free_entry;     // valid while on_free_list
    };
    Block* new_block(std::uint64_t size, Block* parent);
    void push_free(Block* b);
    void remove_free(Block* b);
    [[nodiscard]] Block* best_fit(std::uint64_t bytes) const;

    std::deque<Block> blocks_;                          // stable addresses
    FreeList free_;
    // Nodes taken off the free list, reused by the next push_free: a steady run moves
    // blocks on and off the list without a heap allocation each time.
    std::vector<FreeList::node_type> spare_nodes_;
    std::uint64_t free_stamps_ = 0;
    [[nodiscard]] Block* used_block(TensorId t) const {
        return t >= 0 && static_cast<std::size_t>(t) < used_.size() ? used_[t] : nullptr;
    }

    std::vector<Block*> used_;  // tensor id -> its block (ids are dense), nullptr when not allocated
    std::uint64_t total_ = 0;
};

}  // namespace memsim
