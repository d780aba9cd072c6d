#include "sim/app/run/run_pipeline.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "models/recompute/recompute_planner.h"
#include "models/workload/input_error.h"
#include "sim/engine/engine.h"
#include "sim/app/run/heuristic_runs.h"
#include "sim/report/outputs.h"
#include "sim/report/run_header.h"
#include "sim/app/run/measuring_runs.h"
#include "sim/app/run/run_warnings.h"
#include "sim/app/run/workload_factory.h"
#include "sim/report/output_folder.h"
#include "sim/scenario/output_table.h"

namespace memsim {

namespace {

// A run whose planner stopped before the simulation: the summary says why.
RunResult stopped_before_run(const Workload& w, const Scenario& s, const PlanStopped& stop) {
    RunResult r;
    Summary& sm = r.summary;
    sm.scenario = s.name;
    sm.status = stop.status;
    sm.message = fmt::format("{}: {}", s.policy.recompute.planner, stop.what());
    sm.workload = workload_label(w);
    sm.allocator = s.policy.allocator;
    sm.semantics = s.policy.semantics;
    sm.swap_mode = s.policy.swap.mode;
    sm.iteration_compute_ms = w.compute_ms() / s.platform.gpu_speed_scale;  // nothing ran: compute_ms stays 0
    sm.ops = w.ops.size();
    sm.forward_end = w.forward_end;
    return r;
}

}  // namespace

bool records_event_log(const Scenario& s, const EngineConfig& config) {
    // A node run also checks its resource lanes against the log (NodeUsage::check_log).
    if (config.platform.has_host_tier()) return true;
    return std::ranges::any_of(output_table(),
                               [&s](const OutputRow& row) { return row.reads_event_log && s.output.wants(row.name); });
}

PlannerOutput planned_execution(const Workload& w, const Scenario& s, const EngineConfig& config) {
    return planned_execution(w, w, s, config);
}

PlannerOutput planned_execution(const Workload& w, const Workload& per_gpu, const Scenario& s, const EngineConfig& config) {
    if (s.policy.recompute.planner.empty()) return {straight_plan(per_gpu), {}};
    // The engine's thrash rule, applied while the plan is written: a planner that would
    // recompute beyond max_overhead (else the runaway limit) x the compute stops as thrash.
    const double overhead = config.max_overhead.value_or(kRunawayOverhead);
    PlannerInputs inputs;
    inputs.budget_bytes = *config.budget;
    inputs.recompute_limit_ms = overhead * per_gpu.compute_ms();
    inputs.heuristic_runs = [&s, &w] { return heuristic_runs(s, w); };  // the optimal planner's start
    return plan_recompute(s.policy.recompute.planner, per_gpu, inputs, s.policy.recompute.planner_params);
}

ExecPlan execution_plan(const Workload& w, const Scenario& s, const EngineConfig& config) {
    return planned_execution(w, s, config).plan;
}

RunResult run_simulation(const Scenario& s, const Workload& w) {
    EngineConfig config = resolve_engine_config(s, w);
    config.record_events = records_event_log(s, config);
    // Started before this process simulates, in children beside its run
    // (measuring_runs.h): every simulation starts on a fresh clock.
    MeasuringRuns measuring;
    measuring.start_no_policy_time(s, w);
    // Plans and the memory floor are about what one GPU holds: a data-parallel rank's share.
    const std::optional<Workload> rank = rank_workload(s, w);
    const Workload& per_gpu = rank ? *rank : w;
    RunResult r;
    try {
        const PlannerOutput planned = planned_execution(w, per_gpu, s, config);
        config.no_prefetch_peak = measuring.start_on_demand_peak(w, config, planned.plan);
        r = simulate(w, config, planned.plan);
        for (const auto& [key, value] : planned.details) r.summary.details[key] = value;
    } catch (const PlanStopped& stop) {
        r = stopped_before_run(w, s, stop);
    }
    Summary& sm = r.summary;
    sm.no_policy_time_ms = measuring.no_policy_time_ms(sm.time_ms);
    sm.overhead = reported_overhead(sm.time_ms, sm.no_policy_time_ms);
    sm.budget_bytes = config.budget;  // also when a planner stopped before the engine ran
    sm.budget_ratio = config.budget_ratio;
    sm.budget_base_bytes = config.budget_base;
    sm.warnings = run_warnings(s, per_gpu, sm);
    return r;
}

ScenarioRun run_scenario(Scenario s, const std::string& out_dir) {
    const Workload w = load_workload(s);
    return run_scenario(std::move(s), w, out_dir);
}

ScenarioRun run_scenario(Scenario s, const Workload& w, const std::string& out_dir) {
    if (!out_dir.empty()) s.resolved["output"]["dir"] = out_dir;  // the summary records where it went
    // Locked and marked incomplete before the run, the mark removed after the last file.
    OutputFolder folder(out_dir.empty() ? s.output.dir : out_dir, "memsim run", EarlierOutputs::all);
    ScenarioRun run{run_simulation(s, w), folder.dir(), {}, {}};
    run.settings = run_header(s, w, run.result.summary).settings;
    // Every output the scenario asks for, summary.json last (sim/report/outputs.h). The
    // log's tensors are those a rank ran: its sizes and roles draw the memory by role.
    const std::optional<Workload> rank = rank_workload(s, w);
    run.outputs = write_run_outputs(run.result.log, run.result.summary, rank ? *rank : w, s, run.dir);
    folder.complete();
    return run;
}

RunResult simulate(const Workload& w, const Scenario& scenario) { return simulate(w, scenario, straight_plan(w)); }

RunResult simulate(const Workload& w, const Scenario& scenario, const ExecPlan& plan) {
    EngineConfig config = resolve_engine_config(scenario, w);
    MeasuringRuns measuring;
    config.no_prefetch_peak = measuring.start_on_demand_peak(w, config, plan);
    return simulate(w, config, plan);
}

int report_run(const ScenarioRun& run, const Scenario& s, const std::string& scenario_file, std::ostream& out,
               std::ostream& err, bool quiet) {
    const Summary& summary = run.result.summary;
    for (const std::string& warning : summary.warnings) err << "memsim: warning: " << warning << "\n";
    if (!quiet) {
        out << to_table(summary, run.settings);
        if (s.resolved["sweep"])
            out << "note       this scenario has a sweep: section; run it with `memsim sweep " << scenario_file
                << "` (this run is its base point)\n";
        out << "wrote      " << (std::filesystem::path(run.dir) / "summary.json").string() << "\n";
        for (const std::string& path : run.outputs) out << "wrote      " << path << "\n";
    }
    if (summary.status == "ok") return 0;
    err << "memsim: " << summary.status << ": " << summary.message << "\n";
    return 2;
}

}  // namespace memsim
