// The figures of PyTorch's "CUDA out of memory" message, for a torch_caching run that
// ran out of memory (docs/torch_allocator.md, "Out of memory").
#include <fmt/format.h>

#include "models/alloc/torch_caching_allocator.h"
#include "models/alloc/torch_sizes.h"

namespace memsim {

namespace {

// PyTorch's format_size: bytes, KiB, MiB or GiB with two decimals; the exact bytes after it.
std::string size_text(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    std::string text;
    if (bytes < 1024) text = fmt::format("{} bytes", bytes);
    else if (bytes < 1024 * 1024) text = fmt::format("{:.2f} KiB", b / 1024.0);
    else if (bytes < 1024ULL * 1024 * 1024) text = fmt::format("{:.2f} MiB", b / 1048576.0);
    else text = fmt::format("{:.2f} GiB", b / 1073741824.0);
    return bytes < 1024 ? text : fmt::format("{} ({} B)", text, bytes);
}

}  // namespace

std::string torch_oom_figures(const torch::State& state, std::uint64_t bytes) {
    const torch::Request r = state.request(bytes, -1);
    const std::optional<std::uint64_t> capacity = state.capacity();
    const std::uint64_t free_bytes = capacity && *capacity > state.reserved ? *capacity - state.reserved : 0;
    return fmt::format(
        "torch_caching: tried to allocate {} (a request of {}); the device (the budget) has a total capacity of {} of which {} "
        "is free; of the allocated memory {} is allocated by PyTorch, and {} is reserved by PyTorch but unallocated ({} "
        "reserved); the largest free block is {}",
        size_text(r.alloc_size), size_text(bytes), capacity ? size_text(*capacity) : std::string("unlimited"), size_text(free_bytes),
        size_text(state.allocated), size_text(state.reserved - state.allocated), size_text(state.reserved),
        size_text(state.largest_free_block()));
}

}  // namespace memsim
