// memsim plan --records FILE.json --strategy S [--offsets] [--align N]
// memsim plan PROFILE_DIR --batch B [--strategy all|S] | memsim plan --dtr-log PATH
#include "sim/app/cli/plan_command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

#include "models/checked_math.h"
#include "models/plan/strategies.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "sim/app/cli/commands.h"
#include "sim/app/plan/plan_table.h"
#include "sim/app/cli/records_file.h"

namespace memsim::cli {

namespace {

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

void print_table(const Workload& w, const std::string& strategy, const plan::PlanOptions& options, bool json) {
    const PlanTable t = plan_table(w, strategy, options);
    if (json) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const PlanTableRow& r : t.rows) {
            nlohmann::ordered_json row;
            row["strategy"] = r.strategy;
            row["total_bytes"] = r.total_bytes;
            row["ratio_to_bound"] = r.ratio_to_bound;
            row["ratio_to_pool"] = r.ratio_to_pool;
            row["time_ms"] = r.time_ms;
            if (!r.note.empty()) row["note"] = r.note;
            rows.push_back(row);
        }
        nlohmann::ordered_json out;
        out["workload"] = w.name;
        out["batch"] = w.batch;
        out["records"] = t.records;
        out["live_bytes_peak"] = t.live_bytes_peak;
        out["pool_peak_bytes"] = t.pool_peak_bytes;
        out["strategies"] = rows;
        if (!t.notes.empty()) out["notes"] = t.notes;
        std::cout << out.dump(2) << "\n";
        return;
    }
    std::cout << fmt::format("{}{}: {} usage records over {} ops; live-bytes peak (lower bound) {} B; pool {} B\n", w.name,
                             w.batch > 0 ? fmt::format(" batch {}", w.batch) : "", t.records, w.ops.size(), t.live_bytes_peak,
                             t.pool_peak_bytes);
    std::cout << fmt::format("{:<24} {:>14} {:>9} {:>9} {:>10}\n", "strategy", "total_bytes", "/bound", "/pool", "time_ms");
    std::vector<std::string> notes = t.notes;  // printed under the table
    for (const PlanTableRow& r : t.rows) {
        std::cout << fmt::format("{:<24} {:>14} {:>9.4f} {:>9.4f} {:>10.2f}\n", r.strategy, r.total_bytes, r.ratio_to_bound,
                                 r.ratio_to_pool, r.time_ms);
        if (!r.note.empty()) notes.push_back(r.note);
    }
    std::cout << fmt::format("{:<24} {:>14} {:>9} {:>9} {:>10.2f}\n", "(planning time total)", "", "", "", t.total_time_ms);
    for (const std::string& note : notes) std::cout << "note: " << note << "\n";
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
            plan::PlanOptions options;
            options.align = opt->align;
            options.seed = opt->seed;
            options.peer_iterations = opt->peer_iterations;
            if (!opt->source.dtr_log.empty()) {
                print_table(load_dtr_log(opt->source.dtr_log), strategy, options, opt->json);
            } else {
                if (opt->source.batch <= 0) throw InputError("memsim plan: --batch B is required with a profile folder");
                print_table(load_mnn_profile(opt->source.profile, opt->source.batch), strategy, options, opt->json);
            }
        });
    });
}

}  // namespace memsim::cli
