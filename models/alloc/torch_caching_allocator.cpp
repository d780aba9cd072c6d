#include "models/alloc/torch_caching_allocator.h"

#include <algorithm>
#include <stdexcept>

#include "models/alloc/torch_sizes.h"

namespace memsim {

void TorchCachingAllocator::set_capacity(std::optional<std::uint64_t> bytes) {
    if (state_.reserved != 0 || figures_.segment_allocations != 0)
        throw std::logic_error("torch_caching: the capacity is set before the first allocation");
    state_ = torch::State(conf_, bytes);
}

void TorchCachingAllocator::allocate(TensorId tensor, std::uint64_t bytes) {
    if (tensor < 0) throw std::logic_error("torch_caching: negative tensor id " + std::to_string(tensor));
    if (state_.holds(tensor)) throw std::logic_error("torch_caching: tensor " + std::to_string(tensor) + " allocated twice");
    if (!state_.malloc(bytes, tensor))
        throw std::logic_error("torch_caching: tensor " + std::to_string(tensor) + " does not fit the device: " +
                               torch_oom_figures(state_, bytes));
    after_malloc();
}

void TorchCachingAllocator::after_malloc() {
    figures_.allocated_peak_bytes = std::max(figures_.allocated_peak_bytes, state_.allocated);
    figures_.segment_allocations = state_.segment_allocations;
    // A malloc frees before it takes: its end is its highest point.
    if (state_.reserved > figures_.reserved_peak_bytes) {
        figures_.reserved_peak_bytes = state_.reserved;
        figures_.fragmentation_bytes = state_.reserved - state_.allocated;
        figures_.segment_count = state_.segment_count;
    }
}

void TorchCachingAllocator::release(TensorId tensor) { state_.free(tensor); }

std::uint64_t TorchCachingAllocator::footprint_if_allocated(std::uint64_t bytes) const {
    if (state_.cached_fit(bytes)) return state_.reserved;
    const torch::Request r = state_.request(bytes, -1);
    const std::optional<std::uint64_t> capacity = state_.capacity();
    const bool collects = state_.gc_on() &&
                          state_.reserved > static_cast<std::uint64_t>(conf_.garbage_collection_threshold * static_cast<double>(*capacity));
    if (!conf_.expandable_segments && !collects && (!capacity || state_.reserved + r.alloc_size <= *capacity))
        return state_.reserved + r.alloc_size;
    // Freeing cache or mapping pages: run PyTorch's malloc on a copy.
    torch::State trial = state_;
    if (trial.malloc(bytes, -1)) return trial.reserved;
    return std::max(trial.reserved + r.alloc_size, capacity ? *capacity + 1 : 0);
}

std::uint64_t TorchCachingAllocator::free_neighbour_bytes(TensorId tensor) const {
    if (!state_.holds(tensor)) return 0;
    const torch::Block& b = state_.block_of(tensor);
    std::uint64_t bytes = 0;
    for (torch::BlockId n : {b.prev, b.next})
        if (n != torch::kNoBlock && !state_.block(n).allocated && state_.block(n).mapped) bytes += state_.block(n).size;
    return bytes;
}

void TorchCachingAllocator::take_events(std::vector<AllocatorEvent>& out) {
    out.insert(out.end(), state_.events.begin(), state_.events.end());
    state_.events.clear();
}

std::string TorchCachingAllocator::out_of_memory(std::uint64_t bytes) {
    // What PyTorch does before it reports: frees its cache trying (the malloc fails). A
    // request the memory manager reports for several tensors at once (dtr semantics make
    // room for all of an op's outputs) may fit as one block: then nothing changes.
    torch::State trial = state_;
    if (!trial.malloc(bytes, -1)) state_ = std::move(trial);
    return torch_oom_figures(state_, bytes);
}

}  // namespace memsim
