#include "sim/sweep/point_run.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "models/recompute/recompute_planner.h"
#include "models/workload/input_error.h"
#include "sim/output/outputs.h"
#include "sim/simulation.h"

namespace memsim {

namespace fs = std::filesystem;

// The run pipeline of sim/cli/run_command.cpp, step for step (planner, simulate, summary
// with the resolved scenario, outputs): the one place a sweep point calls it. When the
// pipeline becomes a library function, this body becomes a call to it.
namespace {

ExecPlan execution_plan(const Workload& w, const Scenario& s) {
    if (s.policy.recompute.planner.empty()) return straight_plan(w);
    if (!s.platform.memory_budget)
        throw InputError(fmt::format("{}: policy.recompute.planner: '{}' needs platform.memory.budget", s.file,
                                     s.policy.recompute.planner));
    const double overhead = s.policy.recompute.max_overhead.value_or(100.0);
    return plan_recompute(s.policy.recompute.planner, w, *s.platform.memory_budget, overhead * w.compute_ms());
}

RunResult stopped_before_run(const Workload& w, const Scenario& s, const PlanStopped& stop) {
    RunResult r;
    Summary& sm = r.summary;
    sm.scenario = s.name;
    sm.status = stop.status;
    sm.message = fmt::format("{}: {}", s.policy.recompute.planner, stop.what());
    sm.workload = w.name.empty() ? w.source : fmt::format("{} (batch {})", w.name, w.batch);
    sm.allocator = s.policy.allocator;
    sm.semantics = s.policy.semantics;
    sm.swap_mode = s.policy.swap.mode;
    sm.compute_ms = w.compute_ms();
    sm.ops = w.ops.size();
    sm.forward_end = w.forward_end;
    return r;
}

void write_summary(const RunResult& r, const Scenario& s, const std::string& dir) {
    fs::create_directories(dir);
    nlohmann::json j = to_json(r.summary);
    j["scenario_resolved"] = yaml_to_json(s.resolved);
    const fs::path path = fs::path(dir) / "summary.json";
    std::ofstream file(path);
    if (!file) throw InputError(fmt::format("{}: cannot write", path.string()));
    file << j.dump(2) << "\n";
}

}  // namespace

int run_point_here(Scenario s, const Workload& w, const std::string& dir, std::ostream& out, std::ostream& err) {
    s.resolved["output"]["dir"] = dir;  // the summary records where it went
    resolve_budget(s, w);
    RunResult r;
    try {
        r = simulate(w, s, execution_plan(w, s));
    } catch (const PlanStopped& stop) {
        r = stopped_before_run(w, s, stop);
    }
    write_summary(r, s, dir);
    const std::vector<std::string> outputs =
        write_run_outputs(r.log, r.summary, s.name, dir, s.output.events, s.output.gantt, s.output.trace);
    out << to_table(r.summary);
    if (s.resolved["sweep"])
        out << "note       this scenario has a sweep: section; run it with `memsim sweep " << s.file
            << "` (this run is its base point)\n";
    out << "wrote      " << (fs::path(dir) / "summary.json").string() << "\n";
    for (const std::string& path : outputs) out << "wrote      " << path << "\n";
    if (r.summary.status != "ok") {
        err << "memsim: " << r.summary.status << ": " << r.summary.message << "\n";
        return 2;
    }
    return 0;
}

}  // namespace memsim
