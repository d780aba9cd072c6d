// Storages and views checked over a run's events (docs/workloads.md, "Storages and
// views"): every operator (and every recomputation) starts with every storage it reads,
// through any view, resident; a storage swapped out and freed that a later operator reads
// is read back (or recomputed) between the free and that read. Independent of the engine's
// own check (GpuStream::check_reads_resident): it reads only the event log.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "models/workload/workload.h"
#include "sim/engine/run_result.h"

namespace memsim::test {

struct StorageCheckCounts {
    int reads_checked = 0;       // (operator start, storage read) pairs checked
    int swapped_and_read = 0;    // storages freed after a swap-out and read again later
};

inline bool is_swap_in(const LaneKey& key) { return key.kind == LaneKind::Swap && key.direction == Direction::In; }
inline bool is_swap_out(const LaneKey& key) { return key.kind == LaneKind::Swap && key.direction == Direction::Out; }

inline StorageCheckCounts check_storage_reads(const Workload& w, const RunResult& r, int gpu = 0) {
    StorageCheckCounts counts;
    const std::vector<TensorId> storage = storage_map(w);
    // Residency of each storage over time: the log's records in order.
    std::vector<std::vector<const ResidencyChange*>> records(w.tensors.size());
    for (const ResidencyChange& rec : r.log.residency)
        if (rec.gpu == gpu) records[rec.tensor].push_back(&rec);
    // The state after the last change at or before t (records are in time order).
    auto resident_at = [&](TensorId s, double t) {
        const auto& list = records[s];
        const auto after = std::upper_bound(list.begin(), list.end(), t,
                                            [](double time, const ResidencyChange* rec) { return time < rec->time_ms; });
        return after != list.begin() && (*std::prev(after))->resident;
    };
    std::vector<const Activity*> activities;
    for (const Activity& a : r.log.activities)
        if (a.gpu == gpu) activities.push_back(&a);
    // One assertion per check, not per read (a log has hundreds of thousands): the first
    // violation is named.
    int not_resident = 0;
    std::string first_not_resident;
    for (const Activity* a : activities) {
        if (a->lane != lane::kCompute && a->lane != lane::kRecompute) continue;
        for (TensorId t : w.ops[a->op].inputs) {
            const TensorId s = storage[t];
            ++counts.reads_checked;
            if (resident_at(s, a->start_ms)) continue;
            if (not_resident++ == 0)
                first_not_resident = "op " + std::to_string(a->op) + " '" + w.ops[a->op].name + "' at " +
                                     std::to_string(a->start_ms) + " ms reads tensor " + w.tensors[t].name + " (storage " +
                                     w.tensors[s].name + "), not resident";
        }
    }
    INFO(first_not_resident);
    CHECK(not_resident == 0);
    // A storage written out and then freed, read later: some swap-in or recomputation of it
    // lies between its free and that read. Per storage, its reads and its returns (swap-ins,
    // recomputations that regenerate it) by start time, so each swap-out is a search.
    std::vector<std::vector<double>> reads(w.tensors.size()), returns(w.tensors.size());
    for (const Activity* a : activities) {
        if (a->lane == lane::kCompute || a->lane == lane::kRecompute) {
            for (TensorId t : w.ops[a->op].inputs) reads[storage[t]].push_back(a->start_ms);
            if (a->lane == lane::kRecompute)
                for (TensorId out : w.ops[a->op].outputs) returns[storage[out]].push_back(a->start_ms);
        } else if (is_swap_in(a->key)) {
            for (TensorId t : a->tensors) returns[storage[t]].push_back(a->start_ms);
        }
    }
    for (auto* lists : {&reads, &returns})
        for (std::vector<double>& times : *lists) std::sort(times.begin(), times.end());
    int not_read_back = 0;
    std::string first_not_read_back;
    for (const Activity* a : activities) {
        if (!is_swap_out(a->key)) continue;
        for (TensorId s : a->tensors) {
            double freed = -1;
            for (const ResidencyChange* rec : records[s])
                if (rec->time_ms >= a->start_ms && !rec->resident) {
                    freed = rec->time_ms;
                    break;
                }
            if (freed < 0) continue;  // used in place: never left the GPU
            const auto next_read = std::lower_bound(reads[s].begin(), reads[s].end(), freed);
            if (next_read == reads[s].end()) continue;
            ++counts.swapped_and_read;
            const auto back = std::lower_bound(returns[s].begin(), returns[s].end(), freed);
            if ((back == returns[s].end() || *back > *next_read) && not_read_back++ == 0)
                first_not_read_back = "storage " + w.tensors[s].name + " swapped out at " + std::to_string(a->start_ms) +
                                      " ms, freed at " + std::to_string(freed) + " ms, read at " + std::to_string(*next_read) +
                                      " ms without a swap-in or recomputation in between";
        }
    }
    INFO(first_not_read_back);
    CHECK(not_read_back == 0);
    return counts;
}

}  // namespace memsim::test
