#include "sim/app/plan/plan_table.h"

#include <fmt/format.h>

#include <chrono>

#include "models/alloc/pool_allocator.h"
#include "models/alloc/replay.h"
#include "models/plan/mincostflow.h"

namespace memsim {

std::vector<std::string> split_strategies(const std::string& list) {
    std::vector<std::string> names;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = list.find(',', start);
        names.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        (void)plan::strategy_info(names.back());
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return names;
}

PlanTable plan_table(const Workload& w, const std::string& strategy, const plan::PlanOptions& options) {
    PlanTable t;
    const std::vector<UsageRecord> records = usage_records(w);
    t.records = records.size();
    t.live_bytes_peak = plan::live_bytes_peak(records);
    PoolAllocator pool;
    t.pool_peak_bytes = replay_peak(w, pool);
    std::vector<std::string> names;
    if (strategy == "all") {
        // Each distinct algorithm once: where `mincostflow` would run mincostflow_fast,
        // only the mincostflow_fast row runs.
        for (const std::string& name : plan::strategy_names()) {
            if (name == "mincostflow" && !plan::mincostflow_runs_tflite(records)) {
                t.notes.push_back(fmt::format("mincostflow: not run separately: on these {} records it is mincostflow_fast "
                                              "(TFLite's network needs <= {} records in order of first_op)",
                                              records.size(), plan::kMincostflowTfliteMaxRecords));
                continue;
            }
            names.push_back(name);
        }
    } else {
        names = split_strategies(strategy);
    }
    const auto ratio = [](std::uint64_t total, std::uint64_t of) {
        return of ? static_cast<double>(total) / static_cast<double>(of) : 0.0;
    };
    for (const std::string& name : names) {
        const auto t0 = std::chrono::steady_clock::now();
        const plan::Plan p = plan::make_plan(name, records, options, /*validate=*/false);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        plan::validate_plan(records, p, options.align);  // not timed: planning time is the planner's alone
        t.total_time_ms += ms;
        t.rows.push_back({name, p.total, ratio(p.total, t.live_bytes_peak), ratio(p.total, t.pool_peak_bytes), ms, p.objects.note});
    }
    return t;
}

}  // namespace memsim
