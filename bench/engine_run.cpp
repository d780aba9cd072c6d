// memsim's engine alone: loads a scenario and its workload (not timed), then times one
// simulation of it with the run configuration and plan `memsim run` uses, in CPU
// seconds of this process. bench/engine_per_activity.sh runs it next to the bare
// SimGrid loop, which times its own simulation the same way, so that neither the
// start-up, nor the workload's generation, nor the outputs are in the engine's
// per-activity figure. --no-event-log measures what the event log costs
// (docs/performance.md): the run records nothing, as memsim's measuring runs do.
//   engine_run SCENARIO.yaml [--no-event-log]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "bench/cpu_clock.h"
#include "sim/engine/engine.h"
#include "sim/app/run/measuring_runs.h"
#include "sim/app/run/run_config.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/app/run/workload_factory.h"

int main(int argc, char** argv) {
    const bool no_event_log = argc == 3 && std::strcmp(argv[2], "--no-event-log") == 0;
    if (argc != 2 && !no_event_log) {
        std::fprintf(stderr, "usage: engine_run SCENARIO.yaml [--no-event-log]\n");
        return 1;
    }
    try {
        const memsim::Scenario scenario = memsim::load_scenario(argv[1]);
        const memsim::Workload workload = memsim::load_workload(scenario);
        memsim::EngineConfig config = memsim::resolve_engine_config(scenario, workload);
        config.record_events = !no_event_log;
        const memsim::ExecPlan plan = memsim::execution_plan(workload, scenario, config);
        memsim::MeasuringRuns measuring;  // a measuring run is a child: not in this process's CPU time
        config.no_prefetch_peak = measuring.start_on_demand_peak(workload, config, plan);
        const double start = process_cpu_seconds();
        const memsim::RunResult result = memsim::simulate(workload, config, plan);
        const double cpu = process_cpu_seconds() - start;
        std::printf("%ld activities, simulation %.6f s CPU\n", static_cast<long>(result.summary.activities), cpu);
        std::fflush(nullptr);
        std::_Exit(0);  // like memsim: no teardown
    } catch (const std::exception& e) {
        std::fprintf(stderr, "engine_run: %s\n", e.what());
        return 1;
    }
}
