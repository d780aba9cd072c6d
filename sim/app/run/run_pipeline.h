// A scenario run end to end, as `memsim run` (and every sweep point, which is a
// `memsim run` process) does it: load the workload, resolve the configuration, build
// the execution plan, simulate, write the outputs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "models/recompute/recompute_planner.h"
#include "models/workload/exec_plan.h"
#include "sim/app/run/run_config.h"
#include "sim/app/run/simulation.h"

namespace memsim {

// Planned recomputation turns the workload into a plan with recompute and early-release
// steps; otherwise every operator runs once, in order. Throws PlanStopped when the
// planner gives up (thrash).
ExecPlan execution_plan(const Workload& w, const Scenario& s, const EngineConfig& config);
// The same with what the planner reports for the summary's details (the optimal planner's
// bound and gap).
PlannerOutput planned_execution(const Workload& w, const Scenario& s, const EngineConfig& config);
// The same, planned on `per_gpu` (a data-parallel rank's share of w: rank_workload) while
// the runs the optimal planner starts from simulate w, which the engine shards itself.
PlannerOutput planned_execution(const Workload& w, const Workload& per_gpu, const Scenario& s, const EngineConfig& config);

// Whether the run of `s` records its event log: only when an output it writes reads the
// log (OutputRow::reads_event_log), or on a node, whose resource lanes are checked against it.
bool records_event_log(const Scenario& s, const EngineConfig& config);

// The simulation of a loaded workload; a planner that stopped gives a summary saying why.
// Its log is empty unless records_event_log.
RunResult run_simulation(const Scenario& s, const Workload& w);

struct ScenarioRun {
    RunResult result;
    std::string dir;                   // where summary.json went
    std::vector<std::string> outputs;  // the other files written, in order
    std::vector<std::pair<std::string, std::string>> settings;  // what shaped the run, in words (RunHeader)
};

// Everything `memsim run` does but printing; `out_dir` (if not empty) overrides
// output.dir and is recorded in the summary's scenario_resolved.
ScenarioRun run_scenario(Scenario s, const std::string& out_dir);
// The same on a workload already loaded (load_workload(s)): a forked sweep point.
ScenarioRun run_scenario(Scenario s, const Workload& w, const std::string& out_dir);

// What `memsim run` prints about a run (the summary table, the files written) to `out`,
// and its failure to `err`; returns memsim run's exit code (0 ok, 2 oom or thrash).
int report_run(const ScenarioRun& run, const Scenario& s, const std::string& scenario_file, std::ostream& out,
               std::ostream& err, bool quiet = false);

}  // namespace memsim
