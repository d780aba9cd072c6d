// The dead tensors a regeneration brought back (sim/engine/regenerated_queue.h): each
// listed once, oldest first, and listed anew (as the newest) when brought back after
// being dropped. The engine's use is in test_recompute_engine.cpp ("a dead ancestor
// regenerated for one branch serves the other").
#include <catch2/catch.hpp>

#include <vector>

#include "sim/engine/regenerated_queue.h"

using namespace memsim;

namespace {

const auto any = [](TensorId) { return true; };

}  // namespace

TEST_CASE("regenerated queue: a tensor used by several recomputations is listed once, at its first use") {
    RegeneratedQueue queue(5);
    for (const TensorId t : {3, 1, 3, 3, 4, 1}) queue.push(t);
    CHECK(queue.take_first(any) == 3);
    CHECK(queue.take_first(any) == 1);
    CHECK(queue.take_first(any) == 4);
    CHECK(queue.take_first(any) == RegeneratedQueue::kNoTensor);  // 3's and 1's later uses are not listings
}

TEST_CASE("regenerated queue: the oldest that qualifies is taken, the others keep their places") {
    RegeneratedQueue queue(6);
    for (const TensorId t : {2, 5, 0, 4}) queue.push(t);
    CHECK(queue.take_first([](TensorId t) { return t == 0 || t == 4; }) == 0);
    CHECK(queue.take_first([](TensorId t) { return t == 1; }) == RegeneratedQueue::kNoTensor);
    CHECK(queue.take_all() == std::vector<TensorId>{2, 5, 4});
    CHECK(queue.take_all().empty());
    CHECK(queue.take_first(any) == RegeneratedQueue::kNoTensor);
}

TEST_CASE("regenerated queue: a tensor dropped and brought back again is the newest") {
    RegeneratedQueue queue(4);
    for (const TensorId t : {0, 1, 2}) queue.push(t);
    CHECK(queue.take_first([](TensorId t) { return t == 0; }) == 0);
    queue.push(0);  // regenerated again, for a later recomputation of the same operator
    queue.push(1);  // already listed: stays where it was
    CHECK(queue.take_all() == std::vector<TensorId>{1, 2, 0});
    // After the operator the queue starts empty: a tensor is listed from its next use.
    queue.push(2);
    queue.push(0);
    CHECK(queue.take_first(any) == 2);
}

TEST_CASE("regenerated queue: a run that never regenerates takes nothing") {
    RegeneratedQueue queue(3);
    CHECK(queue.take_first(any) == RegeneratedQueue::kNoTensor);
    CHECK(queue.take_all().empty());
}
