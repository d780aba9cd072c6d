#include <catch2/catch.hpp>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/alloc/replay.h"
#include "models/allocators.h"
#include "models/plan/strategies.h"
#include "test_support.h"

using namespace memsim;

TEST_CASE("os allocator: peak is the maximum of live bytes") {
    OsAllocator os;
    os.allocate(1, 100);
    os.allocate(2, 50);
    os.release(1);
    os.allocate(3, 120);  // 50 + 120 = 170 > 150
    CHECK(os.footprint_bytes() == 170);
    CHECK(os.peak_bytes() == 170);
    CHECK(os.footprint_if_allocated(30) == 200);
    CHECK_THROWS(os.release(1));
    CHECK_THROWS(os.allocate(2, 1));
}

TEST_CASE("pool allocator: alignment and best fit and split and lost child and merge") {
    PoolAllocator pool;
    pool.allocate(1, 100);  // miss: new 128 B chunk
    CHECK(pool.peak_bytes() == 128);
    pool.allocate(2, 64);   // miss: new 64 B chunk
    CHECK(pool.peak_bytes() == 192);
    pool.release(1);        // top-level chunk back on the free list
    pool.allocate(3, 200);  // 128 < 200: miss, new 256 B chunk
    CHECK(pool.peak_bytes() == 448);
    pool.release(3);        // free list: 128, 256
    CHECK(pool.free_chunk_count() == 2);
    pool.allocate(4, 10);   // best fit for 64 B is the 128 chunk: split 64 used + 64 free
    CHECK(pool.peak_bytes() == 448);
    CHECK(pool.free_chunk_count() == 2);  // 64 (remainder) and 256
    CHECK(pool.free_bytes() == 64 + 256);
    pool.allocate(5, 64);   // takes the 64 B remainder exactly
    CHECK(pool.free_bytes() == 256);
    pool.release(4);        // its sibling (tensor 5) is in use: the child is lost until the merge
    CHECK(pool.free_bytes() == 256);
    pool.allocate(6, 60);   // so this one splits the 256 chunk instead (64 + 192)
    CHECK(pool.peak_bytes() == 448);
    CHECK(pool.free_bytes() == 192);
    pool.release(5);        // both children of the 128 chunk free: merged back
    CHECK(pool.free_bytes() == 192 + 128);
    pool.release(6);        // both children of the 256 chunk free: merged back
    CHECK(pool.free_bytes() == 128 + 256);
    CHECK(pool.free_chunk_count() == 2);
    pool.allocate(7, 300);  // nothing fits 320: a new chunk
    CHECK(pool.peak_bytes() == 448 + 320);
}

TEST_CASE("pool allocator: nested split merges back to the top chunk") {
    PoolAllocator pool;
    pool.allocate(1, 256);
    pool.release(1);         // free: 256
    pool.allocate(2, 64);    // 256 -> 64 used + 192 free
    pool.allocate(3, 64);    // 192 -> 64 used + 128 free (grandchildren)
    CHECK(pool.free_bytes() == 128);
    pool.release(3);         // 192's children all free: 192 back; 256 still has tensor 2
    CHECK(pool.free_bytes() == 192);
    pool.release(2);         // 256 whole again
    CHECK(pool.free_bytes() == 256);
    CHECK(pool.free_chunk_count() == 1);
    CHECK(pool.peak_bytes() == 256);
}

TEST_CASE("replay of a hand-made graph: os and pool peaks worked out on paper") {
    // op0: a=100 B; op1: b=300 B reads a, scratch 64 B, releases a;
    // op2: c=100 B reads b, releases b; op3: d=50 B reads c (never released).
    const Workload w = test::WorkloadBuilder()
                           .op(1, 100, {}, {})
                           .op(1, 300, {0}, {0}, {64})
                           .op(1, 100, {1}, {1})
                           .op(1, 50, {2}, {2})
                           .build(2);
    OsAllocator os;
    // During op1: a + b + scratch = 100 + 300 + 64 = 464.
    CHECK(replay_peak(w, os) == 464);
    PoolAllocator pool;
    // a: new 128. b: new 320 (448). scratch: new 64 (512). free scratch, free a.
    // c (128): best fit is a's 128 chunk. free b. d (64): the scratch's 64 chunk.
    CHECK(replay_peak(w, pool) == 512);
}

TEST_CASE("allocator table: os, pool and one planner row per strategy, and unknown names get the valid ones and the closest") {
    const std::vector<std::string> names = allocator_names();
    REQUIRE(names.size() == 3 + plan::strategy_names().size());
    CHECK(names[0] == "os");
    CHECK(names[1] == "pool");
    CHECK(names[2] == "torch_caching");
    CHECK(names[3] == "planner:naive");
    for (const AllocatorRow& row : allocator_table()) {
        INFO(row.name);
        CHECK(!row.summary.empty());
        CHECK(make_allocator(std::string(row.name))->name() == row.name);
    }
    CHECK_THROWS_WITH(make_allocator("poll"), Catch::Contains("unknown allocator 'poll' (valid: os, pool, torch_caching, planner:naive,") &&
                                                  Catch::Contains("did you mean 'pool'?"));
}

TEST_CASE("allocator rows carry what the rest of memsim asks of an allocator, not its name") {
    // torch_caching alone models segments (memory_snapshot.pickle) and takes a configuration
    // text; os alone has a footprint equal to the live bytes; planners place ahead.
    CHECK(segment_allocator_names() == std::vector<std::string>{"torch_caching"});
    for (const AllocatorRow& row : allocator_table()) {
        INFO(row.name);
        const std::string name(row.name);
        CHECK(row.flags.models_segments == (name == "torch_caching"));
        CHECK(row.flags.config_param == (name == "torch_caching" ? "torch_alloc_conf" : ""));
        CHECK(row.flags.footprint_is_live_bytes == (name == "os"));
        CHECK(footprint_is_live_bytes(name) == (name == "os"));
        CHECK(row.flags.plans_ahead == (name.rfind("planner:", 0) == 0));
    }
    CHECK_FALSE(footprint_is_live_bytes("no such allocator"));
}
