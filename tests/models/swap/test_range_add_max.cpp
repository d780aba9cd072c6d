// RangeAddMax, the budget prefetch guard's range maximum: a hand-worked sequence, then
// agreement with a plain array walked position by position over fixed pseudo-random
// adds and queries (the guard's answers, hence every async run, depend on it exactly).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "models/swap/prefetch/range_add_max.h"

using memsim::RangeAddMax;

TEST_CASE("range add max: a hand-worked sequence") {
    RangeAddMax t({5, 1, 4, 1, 5});
    CHECK(t.max(0, 5) == 5);
    CHECK(t.max(1, 4) == 4);
    CHECK(t.max(3, 4) == 1);
    t.add(2, 5, -3);  // 5 1 1 -2 2
    CHECK(t.max(1, 5) == 2);
    CHECK(t.max(1, 4) == 1);
    CHECK(t.max(0, 1) == 5);
    t.add(0, 1, -10);  // -5 1 1 -2 2
    CHECK(t.max(0, 3) == 1);
    CHECK(t.max(0, 5) == 2);
    t.add(3, 9, 4);  // past the end is clipped: -5 1 1 2 6
    CHECK(t.max(3, 5) == 6);
    CHECK(t.max(0, 4) == 2);
}

TEST_CASE("range add max: the same answers as a plain array") {
    std::mt19937_64 random(20261124);
    for (const std::size_t n : {1u, 2u, 7u, 64u, 1000u}) {
        INFO(n);
        std::vector<std::int64_t> plain(n);
        for (auto& v : plain) v = static_cast<std::int64_t>(random() % 2001) - 1000;
        RangeAddMax t(plain);
        for (int step = 0; step < 2000; ++step) {
            std::size_t lo = random() % n, hi = random() % n;
            if (lo > hi) std::swap(lo, hi);
            ++hi;
            if (step % 2 == 0) {
                const auto delta = static_cast<std::int64_t>(random() % 201) - 100;
                t.add(lo, hi, delta);
                for (std::size_t k = lo; k < hi; ++k) plain[k] += delta;
            } else {
                REQUIRE(t.max(lo, hi) == *std::max_element(plain.begin() + static_cast<std::ptrdiff_t>(lo),
                                                           plain.begin() + static_cast<std::ptrdiff_t>(hi)));
            }
        }
    }
}
