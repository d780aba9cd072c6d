// memsim compare: every policy family at the scenario's budget, ranked (sim/app/compare/).
#include <CLI/CLI.hpp>


#include <iostream>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/sweep/sweep_runner.h"
#include "sim/app/compare/compare_run.h"

namespace memsim::cli {

void register_compare_command(CLI::App& app) {
    struct Options {
        std::string scenario, out;
        std::vector<std::string> sets, policies;
        int jobs = 0;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "compare", "Every policy family (no policy, each swap mode with its best prefetch, each recompute heuristic and "
                   "planner, hybrid) at the scenario's budget: a ranked table and a Pareto plot");
    cmd->add_option("scenario", opt->scenario, "Scenario YAML file with a budget")->required();
    cmd->add_option("--policies", opt->policies, "Families to run, comma-separated (default: all; see the footer)")
        ->delimiter(',');
    cmd->add_option("--set", opt->sets, "Override a scenario key for every run")->take_all()->allow_extra_args(false);
    cmd->add_option("--jobs,-j", opt->jobs, "Runs at a time (default: the number of cores)")->check(CLI::PositiveNumber);
    cmd->add_option("--out", opt->out, "Sweep folder for the runs (default: <scenario output.dir>/compare)");
    cmd->footer("policy families: " + [] {
        std::string text;
        for (const std::string& name : policy_family_names()) text += (text.empty() ? "" : ", ") + name;
        return text;
    }());
    cmd->callback([opt]() {
        guarded([&]() {
            CompareRequest request;
            request.scenario_file = opt->scenario;
            request.overrides = opt->sets;
            request.families = opt->policies;
            request.dir = opt->out;
            run_points_here(request.run, opt->jobs);
            const CompareOutcome outcome = run_compare(request, std::cerr);
            std::cout << outcome.report;
            for (const std::string& file : outcome.files) std::cout << "wrote " << file << "\n";
        });
    });
}

}  // namespace memsim::cli
