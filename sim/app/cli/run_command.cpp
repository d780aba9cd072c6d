// memsim run: parses its flags and runs the scenario through the library's pipeline
// (sim/app/run/run_pipeline.h); memsim generate: writes the example MLP profile.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "models/workload/example_mlp.h"
#include "sim/app/cli/commands.h"
#include "sim/app/run/child_process.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/schema.h"
#include "sim/scenario/sweep_plan.h"
#include "sim/app/run/workload_factory.h"

namespace memsim::cli {

namespace fs = std::filesystem;

void register_run_command(CLI::App& app) {
    struct Options {
        std::string scenario;
        std::vector<std::string> sets;
        std::string out;
        bool quiet = false;
        bool sweep_point = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("run", "Simulate one scenario and print its summary");
    cmd->add_option("scenario", opt->scenario, "Scenario YAML file")->required();
    cmd->add_option("--set", opt->sets, "Override a scenario key by dotted path, e.g. --set workload.batch=8")
        ->take_all()
        ->allow_extra_args(false);
    cmd->add_option("--out", opt->out, "Output folder (default: the scenario's output.dir, else out/<name>)");
    cmd->add_flag("--quiet,-q", opt->quiet, "Print nothing but errors");
    cmd->add_flag("--sweep-point", opt->sweep_point,
                  "Run as one point of the scenario's sweep (as `memsim sweep --process-per-point` does): the scenario "
                  "without its sweep section");
    cmd->footer(policy_choices_help() + "\n" + outputs_help());
    cmd->callback([opt]() {
        guarded([&]() {
            if (const char* parent = std::getenv(kParentPidVariable); opt->sweep_point && parent)
                die_with_parent(static_cast<pid_t>(std::atol(parent)));  // a sweep's point ends with its sweep
            const Scenario s = opt->sweep_point ? ScenarioFile(opt->scenario).load_point(opt->sets)
                                                : load_scenario(opt->scenario, opt->sets);
            check_sweep_section(s);  // its size, before the run (sweep_plan.h)
            // Both stay until the process leaves through _Exit (main.cpp): freeing a large
            // workload and its run's event log block by block only delays the exit.
            const Workload& w = *new Workload(load_workload(s));
            const ScenarioRun& run = *new ScenarioRun(run_scenario(s, w, opt->out));
            if (report_run(run, s, opt->scenario, std::cout, std::cerr, opt->quiet) != 0) set_exit_code(kExitScenarioFailed);
        });
    });
}

void register_generate_command(CLI::App& app) {
    struct Options {
        std::string out;
        std::vector<int> batches{1, 2, 4, 8};
        int layers = 4;
        int width = 512;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("generate", "Write the example MLP training iteration as an MNN profile folder");
    cmd->add_option("out", opt->out, "Folder to write")->required();
    cmd->add_option("--batch", opt->batches, "Batch sizes to write")->take_all();
    cmd->add_option("--layers", opt->layers, "Hidden layers");
    cmd->add_option("--width", opt->width, "Hidden layer width");
    cmd->callback([opt]() {
        guarded([&]() {
            for (int b : opt->batches) {
                MlpShape shape;
                shape.batch = b;
                shape.layers = opt->layers;
                shape.hidden = opt->width;
                write_mnn_profile(make_example_mlp(shape), opt->out);
            }
            std::cout << "wrote " << opt->out << "\n";
        });
    });
}

}  // namespace memsim::cli
