// `torch_caching`: PyTorch's CUDA caching allocator (c10's CUDACachingAllocator) as a memsim
// allocator, with the options of PYTORCH_CUDA_ALLOC_CONF (policy.torch_alloc_conf). Its
// footprint is the reserved bytes (segments held); allocated bytes, fragmentation and
// segments are reported too (docs/torch_allocator.md). The rules are in torch_state.h.
#pragma once

#include <optional>

#include "models/alloc/allocator.h"
#include "models/alloc/torch_alloc_conf.h"
#include "models/alloc/torch_state.h"

namespace memsim {

class TorchCachingAllocator final : public Allocator {
public:
    explicit TorchCachingAllocator(TorchAllocConf conf = {}) : conf_(std::move(conf)), state_(conf_, std::nullopt) {}

    [[nodiscard]] std::string name() const override { return "torch_caching"; }
    void allocate(TensorId tensor, std::uint64_t bytes) override;
    void release(TensorId tensor) override;
    [[nodiscard]] std::uint64_t footprint_bytes() const override { return state_.reserved; }
    [[nodiscard]] std::uint64_t peak_bytes() const override { return figures_.reserved_peak_bytes; }
    // The reserved bytes after PyTorch's malloc of `bytes`, with the cache it would free
    // on the way; above the capacity when even that does not fit.
    [[nodiscard]] std::uint64_t footprint_if_allocated(std::uint64_t bytes) const override;
    // Free bytes in the blocks on either side of the tensor's block, in its segment.
    [[nodiscard]] std::uint64_t free_neighbour_bytes(TensorId tensor) const override;
    void set_capacity(std::optional<std::uint64_t> bytes) override;
    [[nodiscard]] std::uint64_t allocated_bytes() const override { return state_.allocated; }
    [[nodiscard]] std::optional<CachingFigures> caching_figures() const override { return figures_; }
    void take_events(std::vector<AllocatorEvent>& out) override;
    std::string out_of_memory(std::uint64_t bytes) override;

    [[nodiscard]] const torch::State& state() const { return state_; }

private:
    void after_malloc();

    TorchAllocConf conf_;
    torch::State state_;
    CachingFigures figures_;
};

// PyTorch's out-of-memory figures for a request of `bytes` the state could not serve.
std::string torch_oom_figures(const torch::State& state, std::uint64_t bytes);

}  // namespace memsim
