// ZeroedArray (sim/engine/zeroed_array.h): all zero from the start, writable, and its
// pages are not touched until written, which is why the swap path's per-tensor arrays
// use it (a run that never swaps pays no page for them). The page count is the
// process's minor faults (getrusage), not a time; the sanitizer builds have their own
// calloc, so there only the values are checked.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <cstdint>
#include <vector>

#include "sim/engine/zeroed_array.h"

using namespace memsim;

namespace {

long minor_faults() {
    rusage use{};
    getrusage(RUSAGE_SELF, &use);
    return use.ru_minflt;
}

}  // namespace

TEST_CASE("zeroed array: every element starts at zero and keeps what is written") {
    ZeroedArray<std::uint64_t> array(1000);
    CHECK(array.size() == 1000);
    for (std::size_t i = 0; i < array.size(); ++i) REQUIRE(array[i] == 0);
    array[0] = 7;
    array[999] = 1ULL << 40;
    CHECK(array[0] == 7);
    CHECK(array[999] == 1ULL << 40);
    CHECK(array[500] == 0);
    const ZeroedArray<char> empty(0);
    CHECK(empty.size() == 0);
}

#ifndef MEMSIM_SANITIZE
TEST_CASE("zeroed array: 256 MiB that nobody writes costs no page; a std::vector of zeros costs them all") {
    constexpr std::size_t kBytes = std::size_t{256} << 20;
    constexpr long kPages = static_cast<long>(kBytes / 4096);
    long before = minor_faults();
    {
        ZeroedArray<std::uint64_t> array(kBytes / 8);
        array[12345] = 1;  // one page written
        CHECK(minor_faults() - before < kPages / 64);
    }
    before = minor_faults();
    {
        std::vector<std::uint64_t> vector(kBytes / 8, 0);
        CHECK(minor_faults() - before > kPages / 2);
    }
}
#endif
