// memsim run: one scenario, one simulation, a summary.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "models/io/atomic_file.h"
#include "models/recompute/recompute_planner.h"
#include "models/workload/input_error.h"
#include "sim/cli/commands.h"
#include "sim/output/outputs.h"
#include "sim/scenario/scenario.h"
#include "sim/simulation.h"
#include "sim/sweep/sweep_plan.h"
#include "models/workload/example_mlp.h"
#include "sim/workload_factory.h"

namespace memsim::cli {

namespace fs = std::filesystem;

namespace {

void write_summary(const RunResult& r, const Scenario& s, const std::string& dir) {
    fs::create_directories(dir);
    nlohmann::json j = to_json(r.summary);
    j["scenario_resolved"] = yaml_to_json(s.resolved);
    write_file_atomically((fs::path(dir) / "summary.json").string(), j.dump(2) + "\n");
}

// Planned recomputation turns the workload into a plan with recompute and early-release
// steps; otherwise every operator runs once, in order.
ExecPlan execution_plan(const Workload& w, const Scenario& s) {
    if (s.policy.recompute.planner.empty()) return straight_plan(w);
    if (!s.platform.memory_budget)
        throw InputError(fmt::format("{}: policy.recompute.planner: '{}' needs platform.memory.budget", s.file,
                                     s.policy.recompute.planner));
    // The engine's thrash rule, applied while the plan is written: a planner that would
    // recompute beyond max_overhead (else 100) x the compute stops as thrash.
    const double overhead = s.policy.recompute.max_overhead.value_or(100.0);
    return plan_recompute(s.policy.recompute.planner, w, *s.platform.memory_budget, overhead * w.compute_ms());
}

// A run whose planner stopped before the simulation: the summary says why.
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

}  // namespace

void register_run_command(CLI::App& app) {
    struct Options {
        std::string scenario;
        std::vector<std::string> sets;
        std::string out;
        bool quiet = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("run", "Simulate one scenario and print its summary");
    cmd->add_option("scenario", opt->scenario, "Scenario YAML file")->required()->check(CLI::ExistingFile);
    cmd->add_option("--set", opt->sets, "Override a scenario key by dotted path, e.g. --set workload.batch=8")
        ->take_all()
        ->allow_extra_args(false);
    cmd->add_option("--out", opt->out, "Output folder (default: the scenario's output.dir, else out/<name>)");
    cmd->add_flag("--quiet,-q", opt->quiet, "Print nothing but errors");
    cmd->callback([opt]() {
        guarded([&]() {
            Scenario s = load_scenario(opt->scenario, opt->sets);
            check_sweep_section(s);  // its size, before the run (sweep_plan.h)
            if (!opt->out.empty()) s.resolved["output"]["dir"] = opt->out;  // the summary records where it went
            const Workload w = load_workload(s);
            resolve_budget(s, w);  // platform.memory.budget_ratio -> bytes
            RunResult r;
            try {
                r = simulate(w, s, execution_plan(w, s));
            } catch (const PlanStopped& stop) {
                r = stopped_before_run(w, s, stop);
            }
            const std::string dir = opt->out.empty() ? s.output.dir : opt->out;
            // The summary last: a run whose other outputs failed leaves no summary to call it ok.
            const std::vector<std::string> outputs = write_run_outputs(r.log, r.summary, s.name, dir, s.output.events, s.output.gantt, s.output.trace);
            write_summary(r, s, dir);
            if (!opt->quiet) {
                std::cout << to_table(r.summary);
                if (s.resolved["sweep"])
                    std::cout << "note       this scenario has a sweep: section; run it with `memsim sweep " << opt->scenario
                              << "` (this run is its base point)\n";
                std::cout << "wrote      " << (fs::path(dir) / "summary.json").string() << "\n";
                for (const std::string& path : outputs) std::cout << "wrote      " << path << "\n";
            }
            if (r.summary.status != "ok") {
                std::cerr << "memsim: " << r.summary.status << ": " << r.summary.message << "\n";
                set_exit_code(kExitScenarioFailed);
            }
        });
    });
}

void register_generate_command(CLI::App& app) {
    struct Options {
        std::string out;
        std::vector<int> batches{1, 2, 4, 8};
        int layers = 4;
        int width = 512;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("generate", "Write the example MLP training iteration as an MNN profile folder");
    cmd->add_option("out", opt->out, "Folder to write")->required();
    cmd->add_option("--batch", opt->batches, "Batch sizes to write")->take_all();
    cmd->add_option("--layers", opt->layers, "Hidden layers");
    cmd->add_option("--width", opt->width, "Hidden layer width");
    cmd->callback([opt]() {
        guarded([&]() {
            for (int b : opt->batches) {
                MlpShape shape;
                shape.batch = b;
                shape.layers = opt->layers;
                shape.hidden = opt->width;
                write_mnn_profile(make_example_mlp(shape), opt->out);
            }
            std::cout << "wrote " << opt->out << "\n";
        });
    });
}

}  // namespace memsim::cli
