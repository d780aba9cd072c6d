// OpList (models/workload/op_list.h): an operator's tensors inside the Op up to N, on the
// heap beyond, with the std::vector operations the loaders, planners and engine use.
#include <catch2/catch.hpp>

#include <vector>

#include "models/workload/op_list.h"
#include "models/workload/workload.h"

using namespace memsim;

namespace {

template <class List>
bool inside(const List& l) {
    const auto* p = reinterpret_cast<const char*>(l.data());
    const auto* self = reinterpret_cast<const char*>(&l);
    return p >= self && p < self + sizeof(List);
}

}  // namespace

TEST_CASE("an operator's lists: two ids or one scratch event in 16 bytes, the Op in 144", "[op_list]") {
    CHECK(sizeof(OpList<TensorId, 2>) == 16);
    CHECK(sizeof(OpList<ScratchEvent, 1>) == 16);
    // name 32, cost 8, five lists 80, recomputes and dtype 8 (padded), flops and bytes 16;
    // five std::vectors made it 192 bytes and three heap blocks.
    CHECK(sizeof(Op) == 144);
}

TEST_CASE("OpList keeps two ids inside, moves to the heap at the third, and keeps the values", "[op_list]") {
    OpList<TensorId, 2> l;
    CHECK(l.empty());
    CHECK(l.capacity() == 2);
    l.push_back(7);
    l.push_back(9);
    CHECK(inside(l));
    CHECK(l == std::vector<TensorId>{7, 9});
    l.push_back(11);
    CHECK_FALSE(inside(l));
    CHECK(l.capacity() == 4);
    CHECK(l == std::vector<TensorId>{7, 9, 11});
    CHECK(l.front() == 7);
    CHECK(l.back() == 11);
    // An element of the list pushed when it is full: copied before the list grows.
    l.push_back(13);
    l.push_back(l[0]);
    CHECK(l == std::vector<TensorId>{7, 9, 11, 13, 7});
    CHECK(l.capacity() == 8);
    l.pop_back();
    CHECK(l.size() == 4);
    l.clear();
    CHECK(l.empty());
    CHECK(l.capacity() == 8);  // the heap block stays, as a vector's does
}

TEST_CASE("OpList copies and moves inline and heap lists", "[op_list]") {
    const OpList<TensorId, 2> small{1, 2};
    const OpList<TensorId, 2> big{1, 2, 3, 4, 5};
    OpList<TensorId, 2> a = small;
    OpList<TensorId, 2> b = big;
    b[0] = 10;
    CHECK(big == std::vector<TensorId>{1, 2, 3, 4, 5});  // a copy owns its block
    CHECK(a == small);
    OpList<TensorId, 2> moved = std::move(b);
    CHECK(moved == std::vector<TensorId>{10, 2, 3, 4, 5});
    CHECK(b.empty());  // NOLINT(bugprone-use-after-move): the moved-from list is empty
    CHECK(b.capacity() == 2);
    moved = small;  // back inside would need a shrink: the block is kept
    CHECK(moved == std::vector<TensorId>{1, 2});
    a = std::move(moved);
    CHECK(a == std::vector<TensorId>{1, 2});
    a = {4, 5, 6};
    CHECK(a == std::vector<TensorId>{4, 5, 6});
    // A vector of lists that reallocates moves them (noexcept) and keeps every value.
    std::vector<OpList<TensorId, 2>> lists;
    for (int i = 0; i < 100; ++i) lists.push_back(OpList<TensorId, 2>(std::vector<TensorId>(static_cast<std::size_t>(i % 5), i)));
    for (int i = 0; i < 100; ++i)
        CHECK(lists[static_cast<std::size_t>(i)] == std::vector<TensorId>(static_cast<std::size_t>(i % 5), i));
}

TEST_CASE("OpList inserts, erases and erase_ifs as a vector does", "[op_list]") {
    OpList<TensorId, 2> l{1, 2, 3};
    l.insert(l.begin() + 1, 8);
    CHECK(l == std::vector<TensorId>{1, 8, 2, 3});
    // The list's own elements inserted into itself.
    l.insert(l.end(), l.begin(), l.begin() + 2);
    CHECK(l == std::vector<TensorId>{1, 8, 2, 3, 1, 8});
    l.erase(l.begin() + 1, l.begin() + 3);
    CHECK(l == std::vector<TensorId>{1, 3, 1, 8});
    CHECK(erase_if(l, [](TensorId t) { return t == 1; }) == 2);
    CHECK(l == std::vector<TensorId>{3, 8});
    l.erase(l.begin());
    CHECK(l == std::vector<TensorId>{8});
    l.resize(3, 5);
    CHECK(l == std::vector<TensorId>{8, 5, 5});
    CHECK(l.to_vector() == std::vector<TensorId>{8, 5, 5});
    OpList<ScratchEvent, 1> events;
    events.push_back({true, 4});
    events.emplace_back(false, 4);
    REQUIRE(events.size() == 2);
    CHECK(events[0].alloc);
    CHECK_FALSE(events[1].alloc);
    CHECK(events[1].tensor == 4);
}
