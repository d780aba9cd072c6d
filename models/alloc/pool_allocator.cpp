#include "models/alloc/pool_allocator.h"

#include <algorithm>
#include <stdexcept>

namespace memsim {

PoolAllocator::Block* PoolAllocator::new_block(std::uint64_t size, Block* parent) {
    Block& b = blocks_.emplace_back();
    b.size = size;
    b.parent = parent;
    if (parent) parent->children.push_back(&b);
    return &b;
}

void PoolAllocator::push_free(Block* b) {
    free_[b->size].push_back(b);
    b->on_free_list = true;
}

void PoolAllocator::remove_free(Block* b) {
    auto it = free_.find(b->size);
    auto& stack = it->second;
    stack.erase(std::find(stack.begin(), stack.end(), b));
    if (stack.empty()) free_.erase(it);
    b->on_free_list = false;
}

std::uint64_t PoolAllocator::footprint_if_allocated(std::uint64_t bytes) const {
    return free_.lower_bound(bytes) == free_.end() ? total_ + align(bytes) : total_;
}

void PoolAllocator::allocate(TensorId tensor, std::uint64_t bytes) {
    if (used_.count(tensor))
        throw std::logic_error("pool allocator: tensor " + std::to_string(tensor) + " allocated twice");
    const std::uint64_t aligned = align(bytes);
    auto fit = free_.lower_bound(bytes);  // every key is a multiple of 64: same as >= aligned
    if (fit == free_.end()) {
        used_[tensor] = new_block(aligned, nullptr);
        total_ += aligned;
        return;
    }
    Block* b = fit->second.back();
    remove_free(b);
    if (b->parent) ++b->parent->live_children;
    if (aligned >= b->size) {
        used_[tensor] = b;
        return;
    }
    ++b->live_children;
    b->children.clear();
    Block* used = new_block(aligned, b);
    Block* rest = new_block(b->size - aligned, b);
    used_[tensor] = used;
    push_free(rest);
}

void PoolAllocator::release(TensorId tensor) {
    auto it = used_.find(tensor);
    if (it == used_.end())
        throw std::logic_error("pool allocator: tensor " + std::to_string(tensor) + " freed but not allocated");
    Block* b = it->second;
    used_.erase(it);
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
    auto it = used_.find(tensor);
    if (it == used_.end() || !it->second->parent) return 0;
    std::uint64_t bytes = 0;
    for (const Block* sibling : it->second->parent->children)
        if (sibling != it->second && sibling->on_free_list) bytes += sibling->size;
    return bytes;
}

std::size_t PoolAllocator::free_chunk_count() const {
    std::size_t n = 0;
    for (const auto& [size, stack] : free_) n += stack.size();
    return n;
}

std::uint64_t PoolAllocator::free_bytes() const {
    std::uint64_t n = 0;
    for (const auto& [size, stack] : free_) n += size * stack.size();
    return n;
}

}  // namespace memsim
