// libFuzzer target: the restricted unpickler and the memory-snapshot reader, then what a
// run does with an accepted snapshot: its workload replayed through torch_caching.
#include "fuzz_support.h"
#include "models/alloc/replay.h"
#include "models/alloc/torch_caching_allocator.h"
#include "models/io/memory_snapshot.h"
#include "models/workload/input_error.h"
#include "models/workload/torch_snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const memsim::MemorySnapshot s = memsim::parse_memory_snapshot(memsim::fuzz::as_text(data, size), "input.pickle");
        const memsim::SnapshotWorkload w = memsim::snapshot_workload(s, "input.pickle");
        memsim::TorchCachingAllocator a;
        (void)memsim::replay_peak(w.workload, a);
        (void)memsim::write_memory_snapshot(s);
    } catch (const memsim::InputError&) {
    }
    return 0;
}
