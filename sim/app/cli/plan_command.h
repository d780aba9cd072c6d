// memsim plan: the static memory planners (docs/planners.md) on usage records from a JSON
// file (one plan printed as JSON) or on a workload (a comparison table).
#pragma once

#include <CLI/CLI.hpp>

namespace memsim::cli {

void register_plan_command(CLI::App& app);

}  // namespace memsim::cli
