#include <CLI/CLI.hpp>

#include "sim/app/cli/commands.h"

namespace memsim::cli {

void add_workload_source_options(CLI::App& cmd, WorkloadSourceOptions& source) {
    cmd.add_option("profile", source.profile, "MNN profile folder (e.g. ../shared/profiles/MobilenetV2)");
    cmd.add_option("--batch,-b", source.batch, "Batch size of the profile files to read (with a profile folder)");
    cmd.add_option("--dtr-log", source.dtr_log, "A DTR operator log instead of a profile folder");
}

}  // namespace memsim::cli
