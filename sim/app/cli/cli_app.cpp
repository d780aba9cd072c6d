// The memsim command line as a function: the program's main() and the Python module's
// forked children (python/_memsim.cpp) run the same parse and the same commands.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "models/policy_table.h"
#include "sim/app/cli/commands.h"
#include "sim/app/cli/plan_command.h"
#include "sim/app/cli/sweep_command.h"

namespace memsim::cli {

int run_cli(int argc, char** argv) {
    CLI::App app{"memsim: a SimGrid simulator of the memory side of deep-learning training"};
    app.require_subcommand(1);
    register_run_command(app);
    register_info_command(app);
    register_generate_command(app);
    register_sweep_command(app);
    register_merge_command(app);
    register_plan_command(app);
    register_trace_command(app);
    register_find_command(app);
    register_compare_command(app);
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
            message = unknown_name_message("command", argv[1], names);
        }
        std::cerr << "memsim: error: " << message << "\n(run 'memsim --help' for usage)\n";
        return kExitError;
    }
    return exit_code();
}

}  // namespace memsim::cli
