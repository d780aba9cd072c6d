// An operator's list of tensors (inputs, outputs, releases, arrivals, scratch events):
// up to N elements inside the object and no heap block, more on the heap. Most operators
// list one or two tensors in each; five std::vectors made an Op 192 bytes plus three heap
// blocks, the largest part of what a run keeps per operator (docs/performance.md, "An
// operator's lists inside the operator"). 16 bytes for two ints: boost::container's
// small_vector is 32 (it keeps a full vector header), and its 32-bit stored_size option is
// for boost::container::vector only, which still allocates.
// Elements are trivially copyable (tensor ids, scratch events), so moves are memcpy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace memsim {

template <class T, std::size_t N>
class OpList {
    static_assert(std::is_trivially_copyable_v<T>, "OpList copies its elements as bytes");
    static_assert(N > 0 && N * sizeof(T) >= sizeof(T*), "the inline elements share their bytes with the heap pointer");

public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;

    OpList() noexcept {}
    OpList(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    // From a std::vector: the loaders and generators build their lists as vectors.
    OpList(const std::vector<T>& values) { assign(values.begin(), values.end()); }  // NOLINT: implicit by design
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    OpList(It first, It last) {
        assign(first, last);
    }
    OpList(const OpList& other) { assign(other.begin(), other.end()); }
    OpList(OpList&& other) noexcept { take(other); }
    OpList& operator=(const OpList& other) {
        if (this != &other) assign(other.begin(), other.end());
        return *this;
    }
    OpList& operator=(OpList&& other) noexcept {
        if (this != &other) {
            free_heap();
            take(other);
        }
        return *this;
    }
    OpList& operator=(std::initializer_list<T> values) {
        assign(values.begin(), values.end());
        return *this;
    }
    ~OpList() { free_heap(); }

    template <class It>
    void assign(It first, It last) {
        clear();
        if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>)
            reserve(static_cast<size_type>(std::distance(first, last)));
        for (; first != last; ++first) push_back(*first);
    }

    [[nodiscard]] size_type size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] size_type capacity() const noexcept { return capacity_; }
    [[nodiscard]] T* data() noexcept { return on_heap() ? heap_ : reinterpret_cast<T*>(inline_); }
    [[nodiscard]] const T* data() const noexcept { return on_heap() ? heap_ : reinterpret_cast<const T*>(inline_); }
    iterator begin() noexcept { return data(); }
    iterator end() noexcept { return data() + size_; }
    const_iterator begin() const noexcept { return data(); }
    const_iterator end() const noexcept { return data() + size_; }
    const_iterator cbegin() const noexcept { return begin(); }
    const_iterator cend() const noexcept { return end(); }
    T& operator[](size_type i) noexcept { return data()[i]; }
    const T& operator[](size_type i) const noexcept { return data()[i]; }
    T& front() noexcept { return data()[0]; }
    const T& front() const noexcept { return data()[0]; }
    T& back() noexcept { return data()[size_ - 1]; }
    const T& back() const noexcept { return data()[size_ - 1]; }

    void clear() noexcept { size_ = 0; }
    void reserve(size_type wanted) {
        if (wanted <= capacity_) return;
        if (wanted > kMaxSize) throw std::length_error("an operator lists more than 2^32 - 1 tensors in one list");
        const size_type grown = std::max<size_type>(wanted, std::min<size_type>(2 * size_type{capacity_}, kMaxSize));
        T* fresh = static_cast<T*>(std::malloc(grown * sizeof(T)));
        if (fresh == nullptr) throw std::bad_alloc();
        if (size_ > 0) std::memcpy(fresh, data(), size_ * sizeof(T));
        free_heap();
        heap_ = fresh;
        capacity_ = static_cast<std::uint32_t>(grown);
    }
    void push_back(const T& value) {
        if (size_ == capacity_) {
            const T copy = value;  // value may live in this list
            reserve(size_type{size_} + 1);
            data()[size_++] = copy;
            return;
        }
        data()[size_++] = value;
    }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        push_back(T{std::forward<Args>(args)...});
        return back();
    }
    void pop_back() noexcept { --size_; }
    void resize(size_type n, const T& value = T{}) {
        reserve(n);
        for (size_type i = size_; i < n; ++i) data()[i] = value;
        size_ = static_cast<std::uint32_t>(n);
    }
    template <class It>
    iterator insert(const_iterator pos, It first, It last) {
        // Copies first: the range may be this list's own elements.
        const std::vector<T> added(first, last);
        const std::vector<T> tail(pos, cend());
        const auto at = static_cast<size_type>(pos - cbegin());
        reserve(at + added.size() + tail.size());
        size_ = static_cast<std::uint32_t>(at);
        for (const T& t : added) push_back(t);
        for (const T& t : tail) push_back(t);
        return begin() + at;
    }
    iterator insert(const_iterator pos, const T& value) { return insert(pos, &value, &value + 1); }
    iterator erase(const_iterator first, const_iterator last) noexcept {
        const auto at = static_cast<size_type>(first - cbegin());
        const auto gone = static_cast<size_type>(last - first);
        std::memmove(data() + at, data() + at + gone, (size_ - at - gone) * sizeof(T));
        size_ -= static_cast<std::uint32_t>(gone);
        return begin() + at;
    }
    iterator erase(const_iterator pos) noexcept { return erase(pos, pos + 1); }

    [[nodiscard]] std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

    friend bool operator==(const OpList& a, const OpList& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
    friend bool operator==(const OpList& a, const std::vector<T>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    static constexpr size_type kMaxSize = std::numeric_limits<std::uint32_t>::max();
    [[nodiscard]] bool on_heap() const noexcept { return capacity_ > N; }
    void free_heap() noexcept {
        if (on_heap()) std::free(heap_);
    }
    // Takes other's elements (its heap block, or a copy of its inline ones) and leaves it empty.
    void take(OpList& other) noexcept {
        std::memcpy(static_cast<void*>(this), static_cast<const void*>(&other), sizeof(OpList));
        other.size_ = 0;
        other.capacity_ = N;
    }

    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = N;
    union {
        T* heap_;
        alignas(T) unsigned char inline_[N * sizeof(T)];
    };
};

// std::erase_if's overload for OpList (found by argument-dependent lookup).
template <class T, std::size_t N, class Pred>
std::size_t erase_if(OpList<T, N>& list, Pred pred) {
    const auto kept = std::remove_if(list.begin(), list.end(), pred);
    const auto gone = static_cast<std::size_t>(list.end() - kept);
    list.erase(kept, list.end());
    return gone;
}

}  // namespace memsim
