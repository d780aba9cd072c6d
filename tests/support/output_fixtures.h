// A hand-made run for the output tests: a six-tensor workload and the event log of an
// iteration with one eviction to disk, one cancelled write, one drop and its
// recomputation, one swap-in with a stall, worked out by hand (times in ms, sizes in B).
#pragma once

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim::test {

// Tensors: 0 w (weights, 1000), 1 x (input, 2000), 2 a1 (op 0, 4000), 3 a2 (op 1, 4000),
// 4 g (op 2, backward, 3000), 5 tmp (scratch of op 1, 500). Ops 0, 1 forward; 2, 3 backward.
inline Workload journey_workload() {
    Workload w;
    w.name = "journey";
    w.batch = 1;
    w.tensors = {{"w", 1000, kNoOp, false, true}, {"x", 2000, kNoOp, false, false}, {"a1", 4000, 0},
                 {"a2", 4000, 1},                 {"g", 3000, 2},                   {"tmp", 500, 1, true}};
    w.ops = {{"conv", 2.0, {0, 1}, {2}, {}, {}, {}},
             {"relu", 2.0, {2}, {3}, {{true, 5}, {false, 5}}, {}, {}},
             {"relu_grad", 1.0, {3, 2}, {4}, {}, {}, {}},
             {"conv_grad", 1.0, {4, 0}, {}, {}, {}, {}}};
    w.forward_end = 2;
    return w;
}

// Live bytes after each change are sampled as the engine does (in use = live: os allocator).
inline EventLog journey_log() {
    EventLog log;
    std::uint64_t live = 0;
    auto take = [&](double t, int tensor, std::uint64_t bytes) {
        log.resident(t, tensor, true);
        live += bytes;
        log.sample(t, live, live, live);
    };
    auto give = [&](double t, int tensor, std::uint64_t bytes) {
        log.resident(t, tensor, false);
        live -= bytes;
        log.sample(t, live, live, live);
    };
    take(0, 0, 1000);
    take(0, 1, 2000);
    take(0, 2, 4000);
    log.add({lane::kCompute, 0, 2, 0, "conv", {2}, 0});
    take(2, 3, 4000);
    take(2, 5, 500);
    log.mark(mark::kEvictToDisk, 2, 1, 2, 4000, kDiskTier);
    log.add(swap_activity(kDiskTier, true, 2, 5, 1, "a1", {2}, 4000));
    log.mark(mark::kCancelWrite, 3, 1, 3, 4000);
    log.add({lane::kCompute, 2, 4, 1, "relu", {3}, 0});
    give(4, 5, 500);
    log.mark(mark::kDrop, 4, 2, 3, 4000);
    give(4, 3, 4000);
    log.forward_end_ms = 4;
    give(5, 2, 4000);  // the write ended: a1 is on disk
    take(5, 2, 4000);  // its read is issued at once and takes the memory back
    log.add({lane::kStall, 5, 7, 2, "waiting for a swap-in", {2}, 0});
    log.add(swap_activity(kDiskTier, false, 5.5, 7, 2, "a1", {2}, 4000));
    take(7, 3, 4000);
    Activity recompute{lane::kRecompute, 7, 9, 1, "relu", {3}, 0};
    recompute.for_tensor = 3;
    log.add(recompute);
    take(9, 4, 3000);
    log.add({lane::kCompute, 9, 10, 2, "relu_grad", {4}, 0});
    log.add({lane::kCompute, 10, 11, 3, "conv_grad", {}, 0});
    give(11, 2, 4000);
    give(11, 3, 4000);
    give(11, 4, 3000);
    log.budget_bytes = 12000;
    return log;
}

}  // namespace memsim::test
