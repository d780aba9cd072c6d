// memsim command line: parse arguments, call the library, print. No logic here.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "models/policy_table.h"
#include "sim/app/cli/commands.h"
#include "sim/app/cli/plan_command.h"
#include "sim/app/cli/sweep_command.h"

int main(int argc, char** argv) {
    CLI::App app{"memsim: a SimGrid simulator of the memory side of deep-learning training"};
    app.require_subcommand(1);
    memsim::cli::register_run_command(app);
    memsim::cli::register_info_command(app);
    memsim::cli::register_generate_command(app);
    memsim::cli::register_sweep_command(app);
    memsim::cli::register_merge_command(app);
    memsim::cli::register_plan_command(app);
    memsim::cli::register_trace_command(app);
    memsim::cli::register_find_command(app);
    memsim::cli::register_compare_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0 through CLI11; a bad command line is an error like any other (exit 1).
        if (e.get_exit_code() == 0) return app.exit(e);
        std::string message = e.what();
        // 'memsim bogus' is a misspelt command, not a missing one: name it and the closest.
        if (argc > 1 && argv[1][0] != '-' && app.get_subcommands().empty()) {
            std::vector<std::string> names;
            for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
            message = memsim::unknown_name_message("command", argv[1], names);
        }
        std::cerr << "memsim: error: " << message << "\n(run 'memsim --help' for usage)\n";
        return memsim::cli::kExitError;
    }
    // Leave without running static destructors: tearing down SimGrid and the ns-3
    // libraries it loads costs milliseconds per run and writes nothing. Every file we
    // write is closed by then; flush the standard streams ourselves.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(memsim::cli::exit_code());
}
