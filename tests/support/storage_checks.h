// Storages and views checked over a run's events (docs/workloads.md, "Storages and
// views"): every operator (and every recomputation) starts with every storage it reads,
// through any view, resident; a storage swapped out and freed that a later operator reads
// is read back (or recomputed) between the free and that read. Independent of the engine's
// own check (GpuStream::check_reads_resident): it reads only the event log.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string_view>
#include <vector>

#include "models/workload/workload.h"
#include "sim/engine/run_result.h"

namespace memsim::test {

struct StorageCheckCounts {
    int reads_checked = 0;       // (operator start, storage read) pairs checked
    int swapped_and_read = 0;    // storages freed after a swap-out and read again later
};

inline bool is_swap_in(std::string_view lane) { return lane == lane::kDiskRead || lane == lane::kHostRead; }
inline bool is_swap_out(std::string_view lane) { return lane == lane::kDiskWrite || lane == lane::kHostWrite; }

inline StorageCheckCounts check_storage_reads(const Workload& w, const RunResult& r, int gpu = 0) {
    StorageCheckCounts counts;
    const std::vector<TensorId> storage = storage_map(w);
    // Residency of each storage over time: the log's records in order.
    std::vector<std::vector<const ResidencyChange*>> records(w.tensors.size());
    for (const ResidencyChange& rec : r.log.residency)
        if (rec.gpu == gpu) records[rec.tensor].push_back(&rec);
    auto resident_at = [&](TensorId s, double t) {
        bool resident = false;
        for (const ResidencyChange* rec : records[s]) {
            if (rec->time_ms > t) break;
            resident = rec->resident;
        }
        return resident;
    };
    std::vector<double> freed_after_swap(w.tensors.size(), -1);  // when a swapped-out storage left the GPU
    std::vector<const Activity*> activities;
    for (const Activity& a : r.log.activities)
        if (a.gpu == gpu) activities.push_back(&a);
    for (const Activity* a : activities) {
        if (a->lane == lane::kCompute || a->lane == lane::kRecompute) {
            for (TensorId t : w.ops[a->op].inputs) {
                const TensorId s = storage[t];
                ++counts.reads_checked;
                INFO("op " << a->op << " '" << w.ops[a->op].name << "' at " << a->start_ms << " ms reads tensor "
                           << w.tensors[t].name << " (storage " << w.tensors[s].name << ")");
                CHECK(resident_at(s, a->start_ms));
            }
        }
    }
    // A storage written out and then freed, read later: some swap-in or recomputation of it
    // lies between its free and that read.
    for (const Activity* a : activities) {
        if (!is_swap_out(a->lane)) continue;
        for (TensorId s : a->tensors) {
            double freed = -1;
            for (const ResidencyChange* rec : records[s])
                if (rec->time_ms >= a->start_ms && !rec->resident) {
                    freed = rec->time_ms;
                    break;
                }
            if (freed < 0) continue;  // used in place: never left the GPU
            const Activity* next_read = nullptr;
            for (const Activity* b : activities) {
                if ((b->lane != lane::kCompute && b->lane != lane::kRecompute) || b->start_ms < freed) continue;
                for (TensorId t : w.ops[b->op].inputs)
                    if (storage[t] == s) next_read = b;
                if (next_read) break;
            }
            if (!next_read) continue;
            ++counts.swapped_and_read;
            bool brought_back = false;
            for (const Activity* b : activities) {
                if (b->start_ms < freed || b->start_ms > next_read->start_ms) continue;
                const bool regenerates = b->lane == lane::kRecompute &&
                                         std::find(w.ops[b->op].outputs.begin(), w.ops[b->op].outputs.end(), s) != w.ops[b->op].outputs.end();
                const bool reads_back = is_swap_in(b->lane) && std::find(b->tensors.begin(), b->tensors.end(), s) != b->tensors.end();
                brought_back = brought_back || regenerates || reads_back;
            }
            INFO("storage " << w.tensors[s].name << " swapped out at " << a->start_ms << " ms, freed at " << freed
                            << " ms, read by op " << next_read->op << " at " << next_read->start_ms << " ms");
            CHECK(brought_back);
        }
    }
    return counts;
}

}  // namespace memsim::test
