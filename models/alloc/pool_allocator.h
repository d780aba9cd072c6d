// `pool`: MNN's buffer pool (docs/semantics.md, Allocators). Sizes aligned up to 64 bytes; a free
// list by size, LIFO among equal sizes; best fit; a larger chunk is split in two
// children (used part, remainder); when every child of a chunk is free they merge
// back into it. A split child freed while its sibling is in use stays off the free
// list until the merge (MNN's behaviour, kept on purpose: it is what the device does).
// Peak = bytes ever taken from the OS.
#pragma once

#include <deque>
#include <map>
#include <unordered_map>
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
    struct Block {
        std::uint64_t size = 0;
        Block* parent = nullptr;
        int live_children = 0;
        std::vector<Block*> children;
        bool on_free_list = false;
    };
    Block* new_block(std::uint64_t size, Block* parent);
    void push_free(Block* b);
    void remove_free(Block* b);

    std::deque<Block> blocks_;                          // stable addresses
    std::map<std::uint64_t, std::vector<Block*>> free_; // size -> stack
    std::unordered_map<TensorId, Block*> used_;
    std::uint64_t total_ = 0;
};

}  // namespace memsim
