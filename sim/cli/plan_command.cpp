// memsim plan --records FILE.json --strategy S [--offsets] [--align N]
// memsim plan PROFILE_DIR --batch B [--strategy all|S] | memsim plan --dtr-log PATH
#include "sim/cli/plan_command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

#include "models/alloc/pool_allocator.h"
#include "models/checked_math.h"
#include "models/plan/mincostflow.h"
#include "models/plan/strategies.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "models/alloc/replay.h"
#include "sim/cli/commands.h"
#include "sim/cli/records_file.h"

namespace memsim::cli {

namespace {

// "a,b,c" -> {"a", "b", "c"}, each checked.
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

void print_records_plan(const std::string& file, const std::string& strategy, bool offsets, std::uint64_t align,
                        std::uint64_t seed, int peer_iterations) {
    const std::vector<UsageRecord> records = read_records(file);
    // --offsets with greedy_by_size is TFLite's offsets greedy_by_size.
    std::string name = strategy;
    if (offsets && strategy == "greedy_by_size") name = "greedy_by_size_offsets";
    plan::PlanOptions options;
    options.align = align;
    options.seed = seed;
    options.peer_iterations = peer_iterations;
    const plan::Plan p = plan::make_plan(name, records, options);
    nlohmann::ordered_json out;
    out["strategy"] = strategy;
    if (offsets || p.kind == plan::PlanKind::Offsets) {
        out["offsets"] = p.offsets.offsets;
        out["total"] = p.offsets.total;
    } else {
        out["object_ids"] = p.objects.object_ids;
        out["object_sizes"] = p.objects.object_sizes;
        out["total"] = p.objects.total;
    }
    if (!p.objects.note.empty()) out["note"] = p.objects.note;
    std::cout << out.dump() << "\n";
}

void print_table(const Workload& w, const std::string& strategy, std::uint64_t align, std::uint64_t seed,
                 int peer_iterations, bool json) {
    const std::vector<UsageRecord> records = usage_records(w);
    const std::uint64_t bound = plan::live_bytes_peak(records);
    PoolAllocator pool;
    const std::uint64_t pool_peak = replay_peak(w, pool);
    std::vector<std::string> names;
    std::vector<std::string> notes;  // printed under the table
    if (strategy == "all") {
        // Each distinct algorithm once: where `mincostflow` would run mincostflow_fast,
        // only the mincostflow_fast row runs.
        for (const std::string& name : plan::strategy_names()) {
            if (name == "mincostflow" && !plan::mincostflow_runs_tflite(records)) {
                notes.push_back(fmt::format("mincostflow: not run separately: on these {} records it is mincostflow_fast "
                                            "(TFLite's network needs <= {} records in order of first_op)",
                                            records.size(), plan::kMincostflowTfliteMaxRecords));
                continue;
            }
            names.push_back(name);
        }
    } else {
        names = split_strategies(strategy);
    }
    plan::PlanOptions options;
    options.align = align;
    options.seed = seed;
    options.peer_iterations = peer_iterations;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    if (!json) {
        std::cout << fmt::format("{}{}: {} usage records over {} ops; live-bytes peak (lower bound) {} B; pool {} B\n",
                                 w.name, w.batch > 0 ? fmt::format(" batch {}", w.batch) : "", records.size(),
                                 w.ops.size(), bound, pool_peak);
        std::cout << fmt::format("{:<24} {:>14} {:>9} {:>9} {:>10}\n", "strategy", "total_bytes", "/bound", "/pool",
                                 "time_ms");
    }
    double total_ms = 0;
    for (const std::string& name : names) {
        const auto t0 = std::chrono::steady_clock::now();
        const plan::Plan p = plan::make_plan(name, records, options, /*validate=*/false);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        plan::validate_plan(records, p, align);  // not timed: planning time is the planner's alone
        total_ms += ms;
        const double to_bound = bound ? static_cast<double>(p.total) / static_cast<double>(bound) : 0.0;
        const double to_pool = pool_peak ? static_cast<double>(p.total) / static_cast<double>(pool_peak) : 0.0;
        if (json) {
            nlohmann::ordered_json row;
            row["strategy"] = name;
            row["total_bytes"] = p.total;
            row["ratio_to_bound"] = to_bound;
            row["ratio_to_pool"] = to_pool;
            row["time_ms"] = ms;
            if (!p.objects.note.empty()) row["note"] = p.objects.note;
            rows.push_back(row);
        } else {
            std::cout << fmt::format("{:<24} {:>14} {:>9.4f} {:>9.4f} {:>10.2f}\n", name, p.total, to_bound, to_pool, ms);
            if (!p.objects.note.empty()) notes.push_back(p.objects.note);
        }
    }
    if (json) {
        nlohmann::ordered_json out;
        out["workload"] = w.name;
        out["batch"] = w.batch;
        out["records"] = records.size();
        out["live_bytes_peak"] = bound;
        out["pool_peak_bytes"] = pool_peak;
        out["strategies"] = rows;
        if (!notes.empty()) out["notes"] = notes;
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << fmt::format("{:<24} {:>14} {:>9} {:>9} {:>10.2f}\n", "(planning time total)", "", "", "", total_ms);
        for (const std::string& note : notes) std::cout << "note: " << note << "\n";
    }
}

}  // namespace

void register_plan_command(CLI::App& app) {
    struct Options {
        WorkloadSourceOptions source;
        std::string records;
        std::string strategy;
        bool offsets = false;
        std::uint64_t align = 1;
        std::uint64_t seed = 1;
        int peer_iterations = 0;
        bool json = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "plan", "Static memory planners: plan usage records (--records) or compare every strategy on a workload");
    add_workload_source_options(*cmd, opt->source);
    cmd->add_option("--records", opt->records,
                    "JSON file {\"records\": [{\"size\": 16, \"first\": 0, \"last\": 1}, ...]}: print one plan as JSON");
    cmd->add_option("--strategy,-s", opt->strategy,
                    "Strategy (with --records: required; with a workload: 'all' (default) or a comma-separated list)");
    cmd->add_flag("--offsets", opt->offsets, "With --records: print offsets in one arena instead of objects");
    cmd->add_option("--align", opt->align, "Offsets are multiples of this many bytes (default 1)");
    cmd->add_option("--seed", opt->seed, "Seed of the randomised planners (default 1)");
    cmd->add_option("--peer-iterations", opt->peer_iterations,
                    "peer_heuristic: rounds of seeded randomised improvement of its order (default 0)");
    cmd->add_flag("--json", opt->json, "With a workload: print the table as JSON");
    cmd->callback([opt]() {
        guarded([&]() {
            const int sources = !opt->records.empty() + !opt->source.profile.empty() + !opt->source.dtr_log.empty();
            if (sources != 1)
                throw InputError("memsim plan: give exactly one of --records FILE.json, a profile folder (with --batch), "
                                 "or --dtr-log PATH");
            if (opt->peer_iterations < 0)
                throw InputError(fmt::format("memsim plan: --peer-iterations: {} is negative", opt->peer_iterations));
            if (opt->align == 0 || opt->align > kMaxAlign)
                throw InputError(fmt::format("memsim plan: --align: {} is out of range [1, {}] (use 1 for none)", opt->align,
                                             kMaxAlign));
            if (!opt->records.empty()) {
                if (opt->strategy.empty() || opt->strategy == "all")
                    throw InputError(fmt::format("memsim plan --records: --strategy S is required (one of {})",
                                                 fmt::join(plan::strategy_names(), ", ")));
                (void)plan::strategy_info(opt->strategy == "greedy_by_size" && opt->offsets ? "greedy_by_size_offsets"
                                                                                             : opt->strategy);
                print_records_plan(opt->records, opt->strategy, opt->offsets, opt->align, opt->seed, opt->peer_iterations);
                return;
            }
            if (opt->offsets) throw InputError("memsim plan: --offsets applies to --records only");
            const std::string strategy = opt->strategy.empty() ? "all" : opt->strategy;
            if (strategy != "all") (void)split_strategies(strategy);
            if (!opt->source.dtr_log.empty()) {
                print_table(load_dtr_log(opt->source.dtr_log), strategy, opt->align, opt->seed, opt->peer_iterations, opt->json);
            } else {
                if (opt->source.batch <= 0) throw InputError("memsim plan: --batch B is required with a profile folder");
                print_table(load_mnn_profile(opt->source.profile, opt->source.batch), strategy, opt->align, opt->seed, opt->peer_iterations, opt->json);
            }
        });
    });
}

}  // namespace memsim::cli
