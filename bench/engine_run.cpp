// memsim's engine alone: loads a scenario and its workload (not timed), then times one
// run_simulation, what `memsim run` does between loading and writing its outputs, in
// CPU seconds of this process. bench/per_activity.sh runs it next to the bare SimGrid
// loop, which times its own simulation the same way, so that neither the start-up, nor
// the workload's generation, nor the outputs are in the engine's per-activity figure.
//   engine_run SCENARIO.yaml
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "sim/run/run_pipeline.h"
#include "sim/workload_factory.h"

namespace {

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: engine_run SCENARIO.yaml\n");
        return 1;
    }
    try {
        const memsim::Scenario scenario = memsim::load_scenario(argv[1]);
        const memsim::Workload workload = memsim::load_workload(scenario);
        const double start = cpu_seconds();
        const memsim::RunResult result = memsim::run_simulation(scenario, workload);
        const double cpu = cpu_seconds() - start;
        std::printf("%ld activities, simulation %.6f s CPU\n", static_cast<long>(result.summary.activities), cpu);
        std::fflush(nullptr);
        std::_Exit(0);  // like memsim: no teardown
    } catch (const std::exception& e) {
        std::fprintf(stderr, "engine_run: %s\n", e.what());
        return 1;
    }
}
