#include "models/alloc/os_allocator.h"

#include <algorithm>
#include <stdexcept>

namespace memsim {

void OsAllocator::allocate(TensorId tensor, std::uint64_t bytes) {
    if (!sizes_.emplace(tensor, bytes).second)
        throw std::logic_error("os allocator: tensor " + std::to_string(tensor) + " allocated twice");
    live_ += bytes;
    peak_ = std::max(peak_, live_);
}

void OsAllocator::release(TensorId tensor) {
    auto it = sizes_.find(tensor);
    if (it == sizes_.end())
        throw std::logic_error("os allocator: tensor " + std::to_string(tensor) + " freed but not allocated");
    live_ -= it->second;
    sizes_.erase(it);
}

}  // namespace memsim
