// `os`: every allocation straight from the operating system; the exact live-bytes
// peak, the lower bound of every allocator.
#pragma once

#include <unordered_map>

#include "models/alloc/allocator.h"

namespace memsim {

class OsAllocator final : public Allocator {
public:
    [[nodiscard]] std::string name() const override { return "os"; }
    void allocate(TensorId tensor, std::uint64_t bytes) override;
    void release(TensorId tensor) override;
    [[nodiscard]] std::uint64_t footprint_bytes() const override { return live_; }
    [[nodiscard]] std::uint64_t peak_bytes() const override { return peak_; }
    [[nodiscard]] std::uint64_t footprint_if_allocated(std::uint64_t bytes) const override { return live_ + bytes; }

private:
    std::unordered_map<TensorId, std::uint64_t> sizes_;
    std::uint64_t live_ = 0;
    std::uint64_t peak_ = 0;
};

}  // namespace memsim
