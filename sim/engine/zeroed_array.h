// A per-tensor array that starts all zero and takes no memory until it is written: the
// swap path's bookkeeping (a write's sequence number, a queued write, a held bounce
// buffer, a completed copy's tier) is sized for every tensor, and a run that never swaps
// never writes it. std::vector writes its zeros, so each of its pages is a page fault
// in every run; calloc hands back fresh pages already zero (glibc and jemalloc skip
// the memset for them), which the kernel maps only when first written.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace memsim {

template <class T>
class ZeroedArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>, "all-zero bytes must be a T");

public:
    explicit ZeroedArray(std::size_t size) : size_(size), data_(static_cast<T*>(std::calloc(size == 0 ? 1 : size, sizeof(T)))) {
        if (!data_) throw std::bad_alloc();
    }

    T& operator[](std::size_t i) { return data_.get()[i]; }
    const T& operator[](std::size_t i) const { return data_.get()[i]; }
    [[nodiscard]] std::size_t size() const { return size_; }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::size_t size_;
    std::unique_ptr<T, Free> data_;
};

}  // namespace memsim
