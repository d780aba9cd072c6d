// The subcommands of the memsim CLI. Each registers itself on the CLI11 app; its
// callback runs the library and records the process exit code.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace memsim::cli {

void register_run_command(CLI::App& app);
void register_info_command(CLI::App& app);
void register_generate_command(CLI::App& app);
// memsim trace: runs tools/trace (a PyTorch training iteration -> a DTR log).
void register_trace_command(CLI::App& app);
// memsim find / memsim compare (sim/app/find/, sim/app/compare/).
void register_find_command(CLI::App& app);
void register_compare_command(CLI::App& app);

// Exit codes: 0 success; 1 an error (bad input, I/O, invariant violation);
// 2 the simulation ran but the scenario failed (oom, thrash); its summary is written.
inline constexpr int kExitError = 1;
inline constexpr int kExitScenarioFailed = 2;
// Exit code of the subcommand that ran (0 unless it reported an error).
int exit_code();
void set_exit_code(int code);
// The workload a static command (info, plan) reads: a profile folder with its batch, or a DTR log.
struct WorkloadSourceOptions {
    std::string profile;
    std::string dtr_log;
    int batch = 0;
};
// Adds the positional profile folder, --batch and --dtr-log to `cmd`.
void add_workload_source_options(CLI::App& cmd, WorkloadSourceOptions& source);

// The whole command line (main.cpp): parses argv, runs the subcommand, returns the exit
// code; a bad command line is reported on stderr (exit 1).
int run_cli(int argc, char** argv);

// What guarded() prints after "memsim: error: " for an exception (a file system error in
// memsim's words: the path, then the reason).
std::string error_message(const std::exception& e);

// Runs `body`; prints any exception as "memsim: error: ..." on stderr and sets exit code 1.
void guarded(const std::function<void()>& body);

}  // namespace memsim::cli
