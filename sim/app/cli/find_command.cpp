// memsim find: the threshold or extreme of one scenario parameter under a condition on the
// summary (sim/app/find/). Flags only; the search and its report live in the library.
#include <CLI/CLI.hpp>
#include <fmt/format.h>


#include <iostream>
#include <memory>

#include "models/workload/input_error.h"
#include "sim/app/cli/commands.h"
#include "sim/app/sweep/sweep_runner.h"
#include "sim/app/find/find_run.h"

namespace memsim::cli {

void register_find_command(CLI::App& app) {
    struct Options {
        std::string scenario, key_until, key_max, key_min, range, until, while_, out;
        std::vector<std::string> sets;
        double tolerance = 0.01;
        int grid = 9, jobs = 0;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "find", "The threshold or extreme of one parameter under a condition on the summary, by bisection (exhaustive "
                "where the response is not monotone); the points evaluated go to a sweep folder");
    cmd->add_option("scenario", opt->scenario, "Scenario YAML file")->required();
    auto* vary = cmd->add_option("--vary", opt->key_until, "Key to vary until the condition holds (with --until)");
    auto* maximize = cmd->add_option("--maximize", opt->key_max, "Key to maximize while the condition holds (with --while)");
    auto* minimize = cmd->add_option("--minimize", opt->key_min, "Key to minimize while the condition holds (with --while)");
    vary->excludes(maximize)->excludes(minimize);
    maximize->excludes(minimize);
    cmd->add_option("--range", opt->range, "A..B: the values to search, e.g. 10MB/s..10GB/s, 1..64, 0.3..1.0")->required();
    auto* until = cmd->add_option("--until", opt->until,
                                  "Condition on summary fields, e.g. 'time_ms <= 2s' or 'status == ok and peak_bytes <= 300MiB'");
    auto* while_ = cmd->add_option("--while", opt->while_, "Condition that must hold at the answer (with --maximize/--minimize)");
    until->excludes(while_);
    cmd->add_option("--set", opt->sets, "Override a scenario key for every point")->take_all()->allow_extra_args(false);
    cmd->add_option("--tolerance", opt->tolerance, "Relative tolerance for a continuous key (default 0.01)")
        ->check(CLI::Range(1e-6, 0.5));
    cmd->add_option("--grid", opt->grid, "Points of the first, coarse grid (default 9)")->check(CLI::Range(3, 1000));
    cmd->add_option("--jobs,-j", opt->jobs, "Points run at a time (default: the number of cores)")->check(CLI::PositiveNumber);
    cmd->add_option("--out", opt->out, "Sweep folder for the points (default: <scenario output.dir>/find)");
    cmd->callback([opt]() {
        guarded([&]() {
            FindRequest request;
            request.scenario_file = opt->scenario;
            request.overrides = opt->sets;
            request.range = opt->range;
            std::string condition, option;
            if (!opt->key_until.empty()) {
                request.mode = FindMode::Until;
                request.key = opt->key_until;
                condition = opt->until;
                option = "--until";
            } else if (!opt->key_max.empty() || !opt->key_min.empty()) {
                request.mode = opt->key_max.empty() ? FindMode::Minimize : FindMode::Maximize;
                request.key = opt->key_max.empty() ? opt->key_min : opt->key_max;
                condition = opt->while_;
                option = "--while";
            } else {
                throw InputError("find: say what to search: --vary KEY --until COND, or --maximize/--minimize KEY --while COND");
            }
            if (condition.empty())
                throw InputError(fmt::format("find: {} needs {} COND", option == "--until" ? "--vary" : "--maximize/--minimize",
                                             option));
            if ((option == "--until" && !opt->while_.empty()) || (option == "--while" && !opt->until.empty()))
                throw InputError("find: --until goes with --vary, --while with --maximize/--minimize");
            request.condition = Condition::parse(condition, option);
            request.tolerance = opt->tolerance;
            request.grid = opt->grid;
            request.dir = opt->out;
            run_points_here(request.run, opt->jobs);
            const FindOutcome outcome = run_find(request, std::cerr);
            std::cout << outcome.report;
            for (const std::string& file : outcome.files) std::cout << "wrote " << file << "\n";
        });
    });
}

}  // namespace memsim::cli
