// memsim sweep and memsim merge: the cartesian product of a scenario's `sweep:`
// section, run here in parallel or emitted as jobs to run elsewhere, then gathered
// into results.csv and plots.
#pragma once

#include <CLI/CLI.hpp>

namespace memsim::cli {

void register_sweep_command(CLI::App& app);
void register_merge_command(CLI::App& app);

}  // namespace memsim::cli
