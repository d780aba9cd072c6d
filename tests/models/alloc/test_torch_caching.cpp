// torch_caching, rule by rule, on hand-worked sequences (docs/torch_allocator.md). Each
// case says the segments and blocks it expects: "@OFFSET SIZE[a:BYTES f:BYTES]" per
// segment (torch_layout.h), sizes in MiB when whole.
#include <catch2/catch.hpp>

#include "models/alloc/torch_caching_allocator.h"
#include "models/alloc/torch_sizes.h"
#include "models/allocators.h"
#include "torch_layout.h"

using namespace memsim;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

// Allocates, and checks first that the footprint the memory manager is told beforehand
// is the one the allocation leaves.
void alloc(TorchCachingAllocator& a, TensorId t, std::uint64_t bytes) {
    const std::uint64_t predicted = a.footprint_if_allocated(bytes);
    a.allocate(t, bytes);
    CHECK(a.footprint_bytes() == predicted);
}

TorchCachingAllocator make(const std::string& conf, std::optional<std::uint64_t> capacity = std::nullopt) {
    TorchCachingAllocator a(parse_torch_alloc_conf(conf));
    a.set_capacity(capacity);
    return a;
}

std::vector<std::string> segment_events(TorchCachingAllocator& a) {
    std::vector<AllocatorEvent> events;
    a.take_events(events);
    std::vector<std::string> out;
    for (const AllocatorEvent& e : events)
        if (std::string(e.action).rfind("segment", 0) == 0)
            out.push_back(fmt::format("{} @{} {}M", e.action, (e.address - torch::kDeviceBase) / MiB, e.size / MiB));
    return out;
}

}  // namespace

TEST_CASE("torch_caching sizes: 512-byte rounding, power-of-two divisions, pools and segment sizes") {
    const TorchAllocConf plain;
    CHECK(torch::round_size(1, plain) == 512);
    CHECK(torch::round_size(512, plain) == 512);
    CHECK(torch::round_size(513, plain) == 1024);
    CHECK(torch::round_size(5 * MiB + 1, plain) == 5 * MiB + 512);
    // PyTorch's own example: 1200 with 4 divisions lies between 1024 and 2048, whose
    // quarters are 1024, 1280, 1536, 1792: 1280.
    CHECK(torch::round_to_power2_division(1200, 4) == 1280);
    CHECK(torch::round_to_power2_division(4096, 4) == 4096);
    const TorchAllocConf four = parse_torch_alloc_conf("roundup_power2_divisions:4");
    CHECK(torch::round_size(5 * MiB + 1, four) == 6 * MiB);  // floor 4 MiB, steps of 1 MiB
    // Divisions apply only above 512 B x divisions: 1200 <= 2048 keeps plain rounding.
    CHECK(torch::round_size(1200, four) == 1536);
    // Pools and new segments: up to 1 MiB small (2 MiB segments); below 10 MiB a 20 MiB
    // segment; from 10 MiB on the request rounded up to 2 MiB.
    CHECK(torch::small_pool(MiB));
    CHECK(!torch::small_pool(MiB + 512));
    CHECK(torch::allocation_size(1024) == 2 * MiB);
    CHECK(torch::allocation_size(MiB + 512) == 20 * MiB);
    CHECK(torch::allocation_size(10 * MiB) == 10 * MiB);
    CHECK(torch::allocation_size(12 * MiB + 512) == 14 * MiB);
}

TEST_CASE("torch_caching conf: PyTorch's syntax, the interval list rule, and errors with the valid range") {
    const TorchAllocConf c = parse_torch_alloc_conf("max_split_size_mb:128, garbage_collection_threshold:0.6,expandable_segments:True");
    CHECK(c.max_split_size == 128 * MiB);
    CHECK(c.garbage_collection_threshold == 0.6);
    CHECK(c.expandable_segments);
    // The first entry also covers the intervals below it; '>' covers its predecessor's
    // interval onwards (so 2 MiB gets 8, not 4): PyTorch's parser does the same.
    const TorchAllocConf l = parse_torch_alloc_conf("roundup_power2_divisions:[2:4,>:8]");
    CHECK(l.divisions_for(MiB) == 4);
    CHECK(l.divisions_for(2 * MiB) == 8);
    CHECK(l.divisions_for(64 * MiB) == 8);
    const TorchAllocConf m = parse_torch_alloc_conf("roundup_power2_divisions:[1:2,256:4,>:1]");
    CHECK(m.divisions_for(100) == 2);        // below 1 MiB: the first interval
    CHECK(m.divisions_for(300 * MiB) == 1);  // [256, 512) MiB: set by 256 then '>'
    CHECK(m.divisions_for(128 * MiB) == 0);  // between the entries: untouched, plain rounding
    CHECK_THROWS_WITH(parse_torch_alloc_conf("max_split_size_mb:20"),
                      "max_split_size_mb: '20' is out of range: an integer number of MiB from 21 to 8589934592");
    CHECK_THROWS_WITH(parse_torch_alloc_conf("garbage_collection_threshold:1.0"),
                      "garbage_collection_threshold: '1.0' is out of range: a number between 0 and 1, both excluded");
    CHECK_THROWS_WITH(parse_torch_alloc_conf("roundup_power2_divisions:3"),
                      Catch::Contains("roundup_power2_divisions: 3 is not a power of two"));
    CHECK_THROWS_WITH(parse_torch_alloc_conf("expandable_segments:true"), "expandable_segments: 'true' is not True or False");
    CHECK_THROWS_WITH(parse_torch_alloc_conf("max_split_size:128"),
                      Catch::StartsWith("unknown option 'max_split_size' (valid: max_split_size_mb:N"));
    CHECK_THROWS_WITH(parse_torch_alloc_conf("backend:cudaMallocAsync"), Catch::Contains("not modelled"));
    CHECK_THROWS_WITH(parse_torch_alloc_conf("max_split_size_mb"), Catch::Contains("expected ':' after max_split_size_mb"));
    CHECK(parse_torch_alloc_conf("").splits_unlimited());
}

TEST_CASE("torch_caching: small requests share a 2 MiB segment, large ones a 20 MiB one, remainders kept") {
    TorchCachingAllocator a;
    alloc(a, 1, 1000);     // 1024 B block of a new 2 MiB small segment; the rest stays free (>= 512 B)
    alloc(a, 2, MiB);      // 1 MiB is still small: cut from the same segment's free block
    alloc(a, 3, MiB + 1);  // large pool: a 20 MiB segment, more than 1 MiB left: split
    CHECK(test::torch_layout(a.state()) == "@0M 2M[a:1024 a:1M f:1047552] | @2M 20M[a:1049088 f:19922432]");
    CHECK(a.footprint_bytes() == 22 * MiB);
    CHECK(a.allocated_bytes() == 1024 + MiB + 1049088);
    CHECK(segment_events(a) == std::vector<std::string>{"segment_alloc @0 2M", "segment_alloc @2 20M"});
}

TEST_CASE("torch_caching: no split when at most 1 MiB would be left in the large pool, the block keeps it") {
    TorchCachingAllocator a;
    alloc(a, 1, 19 * MiB + MiB / 2);  // 20 MiB segment, 512 KiB left: not split
    CHECK(test::torch_layout(a.state()) == "@0M 20M[a:20M]");
    CHECK(a.allocated_bytes() == 20 * MiB);  // allocated counts the whole block, as PyTorch's memory_allocated does
    a.release(1);
    alloc(a, 2, 19 * MiB);  // the cached 20 MiB block; 1 MiB left is not more than 1 MiB: no split
    CHECK(test::torch_layout(a.state()) == "@0M 20M[a:20M]");
    a.release(2);
    alloc(a, 3, 18 * MiB);  // 2 MiB left: split
    CHECK(test::torch_layout(a.state()) == "@0M 20M[a:18M f:2M]");
    CHECK(a.footprint_bytes() == 20 * MiB);
}

TEST_CASE("torch_caching: best fit, and free neighbours merge back into one block") {
    TorchCachingAllocator a;
    alloc(a, 1, 12 * MiB);  // 12 MiB segment, exact
    alloc(a, 2, 14 * MiB);  // 14 MiB segment, exact
    a.release(1);
    a.release(2);
    alloc(a, 3, 11 * MiB);  // best fit: the 12 MiB block; 1 MiB left: not split
    CHECK(test::torch_layout(a.state()) == "@0M 12M[a:12M] | @12M 14M[f:14M]");
    TorchCachingAllocator m;
    alloc(m, 1, 5 * MiB);  // 20 MiB segment: 5 used, 15 free
    alloc(m, 2, 5 * MiB);  // from the 15: 5 used, 10 free
    CHECK(test::torch_layout(m.state()) == "@0M 20M[a:5M a:5M f:10M]");
    m.release(1);  // its neighbour is in use: a free 5 MiB block of its own
    CHECK(test::torch_layout(m.state()) == "@0M 20M[f:5M a:5M f:10M]");
    CHECK(m.free_neighbour_bytes(2) == 15 * MiB);
    m.release(2);  // joins both neighbours: the whole segment is one free block again
    CHECK(test::torch_layout(m.state()) == "@0M 20M[f:20M]");
    CHECK(m.state().pool(false).blocks.size() == 1);
}

TEST_CASE("torch_caching: oversize blocks with max_split_size_mb are never split and serve only close oversize requests") {
    TorchCachingAllocator a = make("max_split_size_mb:30");
    alloc(a, 1, 40 * MiB);  // oversize: its own 40 MiB segment, never split
    a.release(1);
    alloc(a, 2, 5 * MiB);  // a request below max_split_size may not take an oversize block: new 20 MiB segment
    CHECK(test::torch_layout(a.state()) == "@0M 40M[f:40M] | @40M 20M[a:5M f:15M]");
    alloc(a, 3, 31 * MiB);  // oversize request, the 40 MiB block is less than 20 MiB larger: taken whole
    CHECK(test::torch_layout(a.state()) == "@0M 40M[a:40M] | @40M 20M[a:5M f:15M]");
    a.release(3);
    alloc(a, 4, 35 * MiB / 2 + 10 * MiB);  // 27.5 MiB < 30: not oversize, so not the 40 MiB block either
    // Its 28 MiB segment would keep 512 KiB: not split.
    CHECK(test::torch_layout(a.state()) == "@0M 40M[f:40M] | @40M 20M[a:5M f:15M] | @60M 28M[a:28M]");
    TorchCachingAllocator b = make("max_split_size_mb:30");
    alloc(b, 1, 60 * MiB);
    b.release(1);
    alloc(b, 2, 35 * MiB);  // 60 >= 35 + 20: too large to hand out, a new 36 MiB segment
    CHECK(test::torch_layout(b.state()) == "@0M 60M[f:60M] | @60M 36M[a:36M]");
}

TEST_CASE("torch_caching: at the capacity, oversize cached blocks go first (max_split_size_mb), then every cached segment") {
    // 60 MiB cached oversize block, 35 MiB request (36 MiB segment): 96 > 90 MiB. The
    // smallest oversize block covering 35 MiB is freed and the segment taken.
    TorchCachingAllocator a = make("max_split_size_mb:30", 90 * MiB);
    alloc(a, 1, 60 * MiB);
    a.release(1);
    segment_events(a);
    alloc(a, 2, 35 * MiB);
    CHECK(segment_events(a) == std::vector<std::string>{"segment_free @0 60M", "segment_alloc @0 36M"});
    CHECK(test::torch_layout(a.state()) == "@0M 36M[a:36M]");
    // No max_split_size: a 2 MiB cached small segment and a 25 MiB request (26 MiB
    // segment) against 27 MiB: PyTorch frees every cached segment and retries.
    TorchCachingAllocator b = make("", 27 * MiB);
    alloc(b, 1, 1000);
    b.release(1);
    CHECK(b.footprint_if_allocated(25 * MiB) == 26 * MiB);
    alloc(b, 2, 25 * MiB);
    CHECK(segment_events(b) == std::vector<std::string>{"segment_alloc @0 2M", "segment_free @0 2M", "segment_alloc @0 26M"});
    CHECK(b.caching_figures()->reserved_peak_bytes == 26 * MiB);
}

TEST_CASE("torch_caching: out of memory reports PyTorch's figures after freeing the cache") {
    TorchCachingAllocator a = make("", 27 * MiB);
    alloc(a, 1, 20 * MiB);
    alloc(a, 2, 1000);  // a 2 MiB small segment
    a.release(2);       // cached
    // 10 MiB more: 22 + 10 > 27 even after the cached 2 MiB go.
    CHECK(a.footprint_if_allocated(10 * MiB) > 27 * MiB);
    const std::string figures = a.out_of_memory(10 * MiB);
    CHECK(figures ==
          "torch_caching: tried to allocate 10.00 MiB (10485760 B) (a request of 10.00 MiB (10485760 B)); the device (the "
          "budget) has a total capacity of 27.00 MiB (28311552 B) of which 7.00 MiB (7340032 B) is free; of the allocated "
          "memory 20.00 MiB (20971520 B) is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated (20.00 MiB "
          "(20971520 B) reserved); the largest free block is 0 bytes");
    std::vector<AllocatorEvent> events;
    a.take_events(events);
    REQUIRE(events.size() >= 2);
    CHECK(std::string(events[events.size() - 2].action) == "segment_free");  // the cached small segment went first
    CHECK(std::string(events.back().action) == "oom");
    CHECK(events.back().address == 7 * MiB);  // the device's free bytes, as PyTorch records them
}

TEST_CASE("torch_caching: an expandable segment grows in place where fixed segments add another") {
    TorchCachingAllocator e = make("expandable_segments:True");
    alloc(e, 1, 5 * MiB);   // maps one 20 MiB page of a new expandable segment; 5 used, 15 free
    CHECK(test::torch_layout(e.state()) == "@0M 20M[a:5M f:15M]");
    alloc(e, 2, 30 * MiB);  // the free 15 MiB and one more page (20 MiB) mapped after it: one 40 MiB segment
    CHECK(test::torch_layout(e.state()) == "@0M 40M[a:5M a:30M f:5M]");
    CHECK(e.footprint_bytes() == 40 * MiB);
    CHECK(e.caching_figures()->segment_count == 1);
    CHECK(segment_events(e) == std::vector<std::string>{"segment_map @0 20M", "segment_map @20 20M"});
    TorchCachingAllocator f;
    alloc(f, 1, 5 * MiB);
    alloc(f, 2, 30 * MiB);  // a segment of its own
    CHECK(test::torch_layout(f.state()) == "@0M 20M[a:5M f:15M] | @20M 30M[a:30M]");
    CHECK(f.footprint_bytes() == 50 * MiB);
}

TEST_CASE("torch_caching: an expandable segment unmaps its free pages when the device is full, then maps what it needs") {
    TorchCachingAllocator e = make("expandable_segments:True", 70 * MiB);
    alloc(e, 1, 5 * MiB);
    alloc(e, 2, 30 * MiB);
    e.release(2);  // 35 MiB free after the 5 MiB block
    segment_events(e);
    // 45 MiB (a 46 MiB allocation): 40 + 46 > 70. The free page [20, 40) is unmapped
    // (reserved 20); then [20, 60) is mapped and joins the free 15 MiB before it.
    alloc(e, 3, 45 * MiB);
    CHECK(segment_events(e) == std::vector<std::string>{"segment_unmap @20 20M", "segment_map @20 40M"});
    CHECK(test::torch_layout(e.state()) == "@0M 60M[a:5M a:45M f:10M]");
    TorchCachingAllocator f = make("", 70 * MiB);  // fixed segments: the cached 30 MiB one goes, a 46 MiB one comes
    alloc(f, 1, 5 * MiB);
    alloc(f, 2, 30 * MiB);
    f.release(2);
    alloc(f, 3, 45 * MiB);
    CHECK(test::torch_layout(f.state()) == "@0M 20M[a:5M f:15M] | @20M 46M[a:46M]");  // 1 MiB left: not split
}

TEST_CASE("torch_caching: the garbage collector frees the older cached segments above its threshold") {
    // Capacity 100 MiB, threshold 0.5: collection starts above 50 MiB reserved. Ages count
    // lookups in the large pool since a block was cached.
    auto run = [](const std::string& conf) {
        TorchCachingAllocator a = make(conf, 100 * MiB);
        alloc(a, 1, 40 * MiB);  // lookup 1
        alloc(a, 2, 30 * MiB);  // lookup 2; 40 <= 50: no collection; reserved 70
        a.release(1);           // cached at 2
        a.release(2);           // cached at 2
        alloc(a, 3, 10 * MiB);  // lookup 3: best fit is the 30 MiB block, split 10 + 20
        a.release(3);           // merged back, cached at 3
        segment_events(a);
        alloc(a, 4, 50 * MiB);  // lookup 4: nothing cached fits
        return std::pair{segment_events(a), test::torch_layout(a.state())};
    };
    // Ages 2 (40 MiB) and 1 (30 MiB), average 1.5: the 40 MiB segment goes and the excess
    // (70 - 50) is reclaimed; the 30 MiB one stays; 30 + 50 fits, at the first address
    // with 50 MiB free (70 MiB: [0, 40) is too small).
    const auto [gc_events, gc_layout] = run("garbage_collection_threshold:0.5");
    CHECK(gc_events == std::vector<std::string>{"segment_free @0 40M", "segment_alloc @70 50M"});
    CHECK(gc_layout == "@40M 30M[f:30M] | @70M 50M[a:50M]");
    // Without it: 70 + 50 > 100, so every cached segment is freed.
    const auto [events, layout] = run("");
    CHECK(events == std::vector<std::string>{"segment_free @40 30M", "segment_free @0 40M", "segment_alloc @0 50M"});
    CHECK(layout == "@0M 50M[a:50M]");
}

TEST_CASE("torch_caching: summary figures and the allocator row") {
    TorchCachingAllocator a;
    alloc(a, 1, 5 * MiB);   // 20 MiB segment, 15 MiB of it free
    alloc(a, 2, 16 * MiB);  // the free 15 MiB is too small: a 16 MiB segment; reserved 36, allocated 21 MiB
    a.release(1);
    alloc(a, 3, 1000);      // 2 MiB small segment: reserved 38 MiB (the peak), allocated 16 MiB + 1024
    const CachingFigures f = *a.caching_figures();
    CHECK(f.reserved_peak_bytes == 38 * MiB);
    CHECK(f.allocated_peak_bytes == 21 * MiB);
    CHECK(f.fragmentation_bytes == 38 * MiB - (16 * MiB + 1024));
    CHECK(f.segment_count == 3);
    CHECK(f.segment_allocations == 3);
    CHECK(a.peak_bytes() == 38 * MiB);
    CHECK(make_allocator("torch_caching", {{"torch_alloc_conf", std::string("expandable_segments:True")}})->name() == "torch_caching");
    CHECK_THROWS_WITH(make_allocator("torch_caching", {{"torch_alloc_conf", std::string("expandable_segments:yes")}}), Catch::Contains("'yes' is not True or False"));
}
