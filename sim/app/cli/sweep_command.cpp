#include "sim/app/cli/sweep_command.h"


#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "sim/app/cli/commands.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/override_rules.h"
#include "sim/app/sweep/sweep_runner.h"
#include "sim/report/text_format.h"

namespace memsim::cli {

namespace {

void print_tally(const SweepTally& tally, const std::string& dir, bool quiet, const SweepPlan* plan = nullptr) {
    if (!quiet) std::cout << tally.table;
    std::cout << fmt::format("{} points: {} ok, {} failed (any status but ok; see results.csv)\n", tally.points, tally.ok,
                             tally.failed);
    if (quiet) return;
    for (const std::string& file : tally.files) std::cout << "wrote " << (std::filesystem::path(dir) / file).string() << "\n";
    if (!plan) return;
    std::string per_point;
    for (const OutputRow& row : output_table()) {
        const auto flag = plan->outputs.find(std::string(row.name));
        if (flag != plan->outputs.end() && flag->second) per_point += std::string(per_point.empty() ? "" : ", ") + std::string(row.file);
    }
    if (!per_point.empty())
        std::cout << fmt::format("each point's {}: {}\n", per_point,
                                 (std::filesystem::path(dir) / "points" / "NNNN").string());
}

}  // namespace

void register_sweep_command(CLI::App& app) {
    struct Options {
        std::string scenario;
        std::vector<std::string> sets;
        std::string out;
        int jobs = 0;
        std::string emit_dir;
        bool process_per_point = false;
        bool quiet = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "sweep", "Run the cartesian product of a scenario's sweep: section, in parallel (each workload loaded once, "
        "each point in a process forked after the load)");
    cmd->add_option("scenario", opt->scenario, "Scenario YAML file with a sweep: section")->required();
    cmd->add_option("--set", opt->sets, "Override a scenario key for every point, e.g. --set workload.batch=8")
        ->take_all()
        ->allow_extra_args(false);
    cmd->add_option("--out", opt->out, "Sweep folder (default: the scenario's output.dir, else out/<name>)");
    cmd->add_option("--jobs,-j", opt->jobs, "Points run at a time (default: the number of cores)")->check(CLI::Range(1, 4096));
    cmd->add_option("--emit-jobs", opt->emit_dir,
                    "Run nothing: write DIR/points/NNNN/scenario.yaml and DIR/jobs.txt (one `memsim run` per line) "
                    "for GNU parallel or a Slurm array; then `memsim merge DIR`");
    cmd->add_flag("--process-per-point", opt->process_per_point,
                  "Start a `memsim run` process per point instead of forking (slower: every point pays the "
                  "start-up and loads its workload; the results are the same)");
    cmd->add_flag("--quiet,-q", opt->quiet,
                  "Print only the one-line tally: no table of the points, no list of files (for scripts; progress and "
                  "errors still go to stderr)");
    cmd->callback([opt]() {
        guarded([&]() {
            const SweepPlan plan = plan_sweep(opt->scenario, opt->sets);
            // Every point's summary says it too (Scenario::warnings); said once here.
            for (const std::string& set : opt->sets)
                for (const SweepParameter& p : plan.parameters)
                    if (std::all_of(p.values.begin(), p.values.end(),
                                    [&](const std::string& value) { return undoes(p.key + "=" + value, set); }))
                        std::cerr << fmt::format("memsim: warning: --set '{}' has no effect: the sweep sets {} at every point\n",
                                                 set, p.key);
            if (!opt->emit_dir.empty()) {
                const std::size_t n = emit_sweep_jobs(plan, opt->emit_dir, current_executable());
                const std::string jobs = (std::filesystem::path(opt->emit_dir) / "jobs.txt").string();
                std::cout << fmt::format("wrote {} point scenarios under {}/points and {}\n", n, opt->emit_dir, jobs);
                // Lines to paste into a shell: every path quoted for it.
                const std::string wrap = fmt::format("sed -n \"${{SLURM_ARRAY_TASK_ID}}p\" {} | bash", shell_quote(jobs));
                std::cout << fmt::format("run them:   parallel --jobs 8 < {0}\n"
                                         "   or:      sbatch --array=1-{1} --wrap {2}\n"
                                         "then:       memsim merge {3}\n",
                                         shell_quote(jobs), n, shell_quote(wrap), shell_quote(opt->emit_dir));
                return;
            }
            SweepRunOptions options;
            run_points_here(options, opt->jobs);
            options.process_per_point = opt->process_per_point;
            const std::string dir = opt->out.empty() ? plan.default_dir : opt->out;
            std::cerr << fmt::format("sweep {}: {} points, {} at a time, into {}\n", plan.scenario_name, plan.points.size(),
                                     options.jobs, dir);
            print_tally(run_sweep(plan, dir, options, std::cerr), dir, opt->quiet, &plan);
        });
    });
}

void register_merge_command(CLI::App& app) {
    struct Options {
        std::string dir;
        bool quiet = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "merge", "Gather the point summaries of a sweep folder (from --emit-jobs) into results.csv and plots");
    cmd->add_option("dir", opt->dir, "Sweep folder holding sweep.json and points/")->required();
    cmd->add_flag("--quiet,-q", opt->quiet, "Print only the one-line tally: no table of the points, no list of files");
    cmd->callback([opt]() { guarded([&]() { print_tally(merge_sweep(opt->dir), opt->dir, opt->quiet); }); });
}

}  // namespace memsim::cli
