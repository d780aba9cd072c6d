#include "models/alloc/pool_allocator.h"

#include <limits>
#include <stdexcept>

namespace memsim {

PoolAllocator::Block* PoolAllocator::new_block(std::uint64_t size, Block* parent) {
    Block& b = blocks_.emplace_back();
    b.size = size;
    b.parent = parent;
    return &b;
}

void PoolAllocator::push_free(Block* b) {
    const FreeKey key{b->size, ++free_stamps_, b};
    // The newest stamp sorts first among its size: a block no larger than the smallest
    // free one goes at the front, in O(1) with the hint (a long run of equal sizes
    // otherwise walks the whole tree depth at every free).
    const bool at_front = free_.empty() || key < *free_.begin();
    if (spare_nodes_.empty()) {
        b->free_entry = at_front ? free_.insert(free_.begin(), key) : free_.insert(key).first;
    } else {
        FreeList::node_type node = std::move(spare_nodes_.back());
        spare_nodes_.pop_back();
        node.value() = key;
        b->free_entry = at_front ? free_.insert(free_.begin(), std::move(node)) : free_.insert(std::move(node)).position;
    }
    b->on_free_list = true;
}

void PoolAllocator::remove_free(Block* b) {
    spare_nodes_.push_back(free_.extract(b->free_entry));
    b->on_free_list = false;
}

PoolAllocator::Block* PoolAllocator::best_fit(std::uint64_t bytes) const {
    // Every size is a multiple of 64: the first key >= bytes is also >= align(bytes).
    // The smallest free block fits: it is the best fit, found without a tree walk.
    if (!free_.empty() && free_.begin()->size >= bytes) return free_.begin()->block;
    const auto it = free_.lower_bound({bytes, std::numeric_limits<std::uint64_t>::max(), nullptr});
    return it == free_.end() ? nullptr : it->block;
}

std::uint64_t PoolAllocator::footprint_if_allocated(std::uint64_t bytes) const {
    return best_fit(bytes) ? total_ : total_ + align(bytes);
}

void PoolAllocator::allocate(TensorId tensor, std::uint64_t bytes) {
    if (tensor < 0) throw std::logic_error("pool allocator: negative tensor id " + std::to_string(tensor));
    if (static_cast<std::size_t>(tensor) >= used_.size()) used_.resize(static_cast<std::size_t>(tensor) + 1, nullptr);
    if (used_[tensor])
        throw std::logic_error("pool allocator: tensor " + std::to_string(tensor) + " allocated twice");
    const std::uint64_t aligned = align(bytes);
    Block* b = best_fit(bytes);
    if (!b) {
        used_[tensor] = new_block(aligned, nullptr);
        total_ += aligned;
        return;
    }
    remove_free(b);
    if (b->parent) ++b->parent->live_children;
    if (aligned >= b->size) {
        used_[tensor] = b;
        return;
    }
    ++b->live_children;
    Block* used = new_block(aligned, b);
    Block* rest = new_block(b->size - aligned, b);
    b->children = {used, rest};  // a merged block split again gets new children
    used_[tensor] = used;
    push_free(rest);
}

void PoolAllocator::release(TensorId tensor) {
    Block* b = used_block(tensor);
    if (!b) throw std::logic_error("pool allocator: tensor " + std::to_string(tensor) + " freed but not allocated");
    used_[tensor] = nullptr;
    if (!b->parent) {
        push_free(b);
        return;
    }
    Block* p = b->parent;
    --p->live_children;
    while (p->live_children == 0) {
        for (Block* child : p->children)
            if (child->on_free_list) remove_free(child);
        push_free(p);
        if (!p->parent) break;
        p = p->parent;
        --p->live_children;
    }
}

std::uint64_t PoolAllocator::free_neighbour_bytes(TensorId tensor) const {
    // The pool has no addresses; a block's neighbours are its siblings in the split tree.
    const Block* b = used_block(tensor);
    if (!b || !b->parent) return 0;
    std::uint64_t bytes = 0;
    for (const Block* sibling : b->parent->children)
        if (sibling != b && sibling->on_free_list) bytes += sibling->size;
    return bytes;
}

std::size_t PoolAllocator::free_chunk_count() const { return free_.size(); }

std::uint64_t PoolAllocator::free_bytes() const {
    std::uint64_t n = 0;
    for (const FreeKey& k : free_) n += k.size;
    return n;
}

}  // namespace memsim
