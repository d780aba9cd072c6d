// The data structures made linear for long runs keep their exact behaviour, on cases
// worked out by hand: the pool's free list (LIFO among equal sizes, a merge taking a
// remainder off the middle of the list), the DTR region walk reused across calls, and
// the synthetic chain and branching workloads the scaling benchmark runs.
#include <catch2/catch.hpp>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/recompute/tensor_graph.h"
#include "models/alloc/replay.h"
#include "models/workload/synthetic.h"

using namespace memsim;

TEST_CASE("pool allocator: among equal sizes the newest free chunk is taken, and a merge removes a remainder from the middle") {
    PoolAllocator pool;
    pool.allocate(1, 128);  // chunk A, 128 B
    pool.allocate(2, 256);  // chunk P, 256 B
    CHECK(pool.peak_bytes() == 384);
    pool.release(2);        // free: P
    pool.allocate(3, 128);  // P -> U (tensor 3) + remainder R 128 B; free: R
    pool.release(1);        // free: R (older), A (newer)
    CHECK(pool.free_chunk_count() == 2);
    CHECK(pool.free_bytes() == 256);
    pool.allocate(4, 128);  // LIFO among the two 128 B chunks: A, so R stays free
    CHECK(pool.free_bytes() == 128);
    pool.release(3);        // U free and R free: P merges back (R leaves the list)
    CHECK(pool.free_chunk_count() == 1);
    CHECK(pool.free_bytes() == 256);
    pool.allocate(5, 256);  // fits P: nothing new from the OS (taking R at step 4 would have cost 256 B more)
    CHECK(pool.peak_bytes() == 384);
    CHECK(pool.free_chunk_count() == 0);

    PoolAllocator other;     // the remainder between an older and a newer 128 B chunk
    other.allocate(1, 128);  // A
    other.allocate(2, 320);  // P
    other.allocate(3, 128);  // B
    CHECK(other.peak_bytes() == 576);
    other.release(1);        // free: A
    other.release(2);        // free: A, P
    other.allocate(4, 192);  // best fit P -> U 192 + remainder R 128; free: A, R
    other.release(3);        // free: A, R, B (three 128 B chunks, oldest first)
    CHECK(other.free_chunk_count() == 3);
    CHECK(other.free_bytes() == 384);
    other.release(4);        // P merges: R leaves the middle of the 128 B chunks; free: A, B, P
    CHECK(other.free_chunk_count() == 3);
    CHECK(other.free_bytes() == 128 + 128 + 320);
    other.allocate(5, 100);  // the newest 128 B chunk: B; then A; P stays whole for the 320
    other.allocate(6, 128);
    other.allocate(7, 320);
    CHECK(other.peak_bytes() == 576);
    CHECK(other.free_chunk_count() == 0);
}

namespace {

// A chain s0 -> s1 -> s2 -> s3 -> s4 -> s5 (op i produces s_i, cost i+1 ms) with s1, s2
// and s4 evicted; with `arrays`, the view also hands the walks its flags and costs by
// storage (EvictionView::storage_arrays), as the DTR reference runtime does.
class ChainView final : public EvictionView {
public:
    explicit ChainView(bool arrays) : arrays_(arrays) {
        for (int i = 0; i < 6; ++i) {
            w_.tensors.push_back(Tensor{"s" + std::to_string(i), 8, i, false, false, -1});
            w_.ops.push_back(Op{"op" + std::to_string(i), i + 1.0, i ? std::vector<TensorId>{i - 1} : std::vector<TensorId>{},
                                {i}, {}, {}, {}});
        }
    }
    const Workload& workload() const override { return w_; }
    double now_ms() const override { return 0; }
    bool resident(TensorId t) const override { return !evicted(t); }
    bool evicted(TensorId t) const override { return t == 1 || t == 2 || t == 4; }
    double last_access_ms(TensorId) const override { return 0; }
    int recompute_count(TensorId) const override { return 0; }
    double compute_cost_ms(TensorId t) const override { return w_.ops[t].cost_ms; }
    std::uint64_t free_neighbour_bytes(TensorId) const override { return 0; }
    StorageArrays storage_arrays() const override {
        return arrays_ ? StorageArrays{flags_.data(), costs_.data()} : StorageArrays{};
    }

private:
    Workload w_;
    bool arrays_;
    std::vector<std::uint8_t> flags_{0, 1, 1, 0, 1, 0};
    std::vector<double> costs_{1, 2, 3, 4, 5, 6};
};

}  // namespace

TEST_CASE("evicted region cost: the same sums on every call, whatever walks came before, through calls or arrays") {
    const ChainView calls(false), arrays(true);
    const TensorGraph g = build_tensor_graph(calls.workload());
    for (int round = 0; round < 6; ++round) {
        const ChainView& view = round % 2 ? arrays : calls;
        INFO((round % 2 ? "arrays" : "calls") << ", round " << round / 2);
        // s0 forward: s1 (2) + s2 (3) = 5, stops at the resident s3.
        CHECK(evicted_region_cost(view, g, 0, true, false) == 5.0);
        // s3 both ways: forward s4 (5); backward s2 (3) + s1 (2) = 10.
        CHECK(evicted_region_cost(view, g, 3, true, true) == 10.0);
        // s5 backward: s4 (5), stops at s3.
        CHECK(evicted_region_cost(view, g, 5, false, true) == 5.0);
        // s3 backward only: 5.
        CHECK(evicted_region_cost(view, g, 3, false, true) == 5.0);
    }
}

TEST_CASE("synthetic chain and branching: operator counts, sizes, releases and peaks worked out by hand") {
    // chain n=3: forward x0 (64 KiB), x1 (128 KiB) reads x0, x2 (192 KiB) reads x1; backward
    // b2 reads x2 (the loss) and x1, writes g1_2 (128 KiB); b1 reads g1_2 and x0, writes
    // g0_1 (64 KiB); b0 reads g0_1. Everything is released after its last reader.
    const Workload c = make_synthetic("chain", {{"n", 3}});
    REQUIRE(c.ops.size() == 6);
    CHECK(c.forward_end == 3);
    CHECK(c.tensors.size() == 5);
    CHECK(c.ops[3].inputs == std::vector<TensorId>{2, 1});
    CHECK(c.ops[5].inputs == std::vector<TensorId>{4});
    // Live bytes (KiB): 64, 192, 384 (all forward), b2: +128 = 512 then x2 freed -> 320,
    // then x1, g1_2 ... the peak is 512 KiB while b2 runs.
    OsAllocator os;
    CHECK(replay_peak(c, os) == 512 * 1024);

    // branching n=4: input x0, then one block: a = f(x0), b = f(a), y = x0 + b. x0 has two
    // readers, so two gradients (from the add and from the first conv) reach its backward op.
    const Workload b = make_synthetic("branching", {{"n", 4}});
    REQUIRE(b.ops.size() == 8);
    CHECK(b.ops[3].inputs == std::vector<TensorId>{0, 2});
    CHECK(b.ops[4].outputs.size() == 2);  // backward of the add: gradients of x0 and b
    CHECK(b.ops[7].inputs.size() == 2);   // backward of the input op: both gradients of x0
    CHECK_THROWS_WITH(make_synthetic("branching", {{"width", 2}}), Catch::Contains("unknown parameter 'width'"));
    CHECK_THROWS_WITH(make_synthetic("tree", {{"n", 2}}), Catch::Contains("known: uniform_linear, chain, branching"));
}
