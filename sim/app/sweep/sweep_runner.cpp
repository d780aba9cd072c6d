#include "sim/app/sweep/sweep_runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/io/input_file.h"
#include "models/io/json_input.h"
#include "models/workload/input_error.h"
#include "sim/report/text_format.h"
#include "sim/app/run/measuring_runs.h"
#include "sim/scenario/parser.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/schema.h"
#include "sim/report/point_results.h"
#include "sim/app/sweep/point_run.h"
#include "sim/app/sweep/process_pool.h"
#include "sim/report/charts/sweep_plots.h"
#include "sim/app/sweep/sweep_progress.h"
#include "sim/app/sweep/sweep_table.h"
#include "sim/app/run/workload_factory.h"
#include "sim/report/output_folder.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

const char* const kPlanFile = "sweep.json";

std::string describe(const SweepPlan& plan, const PointResult& r) {
    std::string text = point_name(r.point);
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        text += fmt::format(" {}={}", plan.parameters[i].key, r.point.values[i]);
    text += ": " + r.status;
    if (!r.message.empty()) text += " (" + r.message + ")";
    return text;
}

// A point's folder starts empty of results (OutputFolder removed what earlier runs left),
// so an old summary cannot pass for a new one.
void clear_point(const std::string& dir) { fs::create_directories(dir); }

void write_plan(const SweepPlan& plan, const std::string& dir) {
    fs::create_directories(dir);
    write_text_file((fs::path(dir) / kPlanFile).string(), plan_to_json(plan).dump(2) + "\n");
}

// results.csv and the plots from the points' results (in plan order).
SweepTally write_results(const SweepPlan& plan, const std::string& dir, const std::vector<PointResult>& results,
                         const PlotOptions& plots = {}) {
    SweepTally tally;
    tally.points = results.size();
    for (const PointResult& r : results) (r.status == "ok" ? tally.ok : tally.failed)++;
    write_text_file((fs::path(dir) / "results.csv").string(), results_csv(plan, results));
    tally.files.push_back("results.csv");
    for (const std::string& plot : write_sweep_plots(plan, results, dir, plots)) tally.files.push_back(plot);
    tally.table = sweep_table(plan, results);
    return tally;
}

SweepTally gather(const SweepPlan& plan, const std::string& dir, const PlotOptions& plots) {
    return write_results(plan, dir, read_point_results(dir, plan), plots);
}

// The scenario `memsim run` would see for this point, made to stand alone: named, no
// sweep section, every path absolute (each key of the schema's kind Path, resolved as
// the scenario resolved it), outputs into the point's folder.
YAML::Node standalone_scenario(const ScenarioFile& file, const SweepPlan& plan, const SweepPoint& point,
                               const std::string& out_dir) {
    const Scenario s = file.load_point(point_overrides(plan, point));
    YAML::Node root = YAML::Clone(s.resolved);
    root.remove("sweep");
    root["name"] = s.name;
    const fs::path folder = fs::path(s.file).parent_path();
    const Parser parser(s.file, folder.empty() ? "." : folder.string());
    for (const std::string& key : path_keys()) {
        const YAML::Node given = lookup_key(root, key);  // const: looking adds no key
        if (!given || !given.IsScalar()) continue;
        set_key(root, key, YAML::Node(fs::absolute(parser.resolve_path(given.Scalar(), key)).lexically_normal().string()),
                s.file);
    }
    root["output"]["dir"] = out_dir;
    return root;
}

}  // namespace

std::string current_executable() { return fs::read_symlink("/proc/self/exe").string(); }

void run_points_here(SweepRunOptions& run, int jobs) {
    run.jobs = jobs > 0 ? jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    run.terminal = isatty(STDERR_FILENO) != 0;
    run.memsim_binary = current_executable();
}

namespace {

// The --set list `memsim run` gets for a point: its overrides, then the sweep's output flags.
std::vector<std::string> run_overrides(const SweepPlan& plan, const SweepPoint& point) {
    std::vector<std::string> sets = point_overrides(plan, point);
    for (std::string& set : output_overrides(plan)) sets.push_back(std::move(set));
    return sets;
}

// The point's overrides that can change its workload: keys under workload, and the
// platform's GPU (workload.costs: device times the operators with platform.gpu's model,
// docs/gpu_model.md), so a whole platform replaced too. Besides the scenario file itself,
// that is all load_workload reads.
std::string workload_key(const std::vector<std::string>& overrides) {
    std::string key;
    for (const std::string& set : overrides) {
        std::string name = set.substr(0, set.find('='));
        name.erase(name.find_last_not_of(" \t") + 1);
        name.erase(0, name.find_first_not_of(" \t"));
        const bool gpu = name == "platform" || name == "platform.gpu" || name.rfind("platform.gpu.", 0) == 0;
        if (name == "workload" || name.rfind("workload.", 0) == 0 || gpu) key += set + "\n";
    }
    return key;
}

// The forked sweep's state in the parent. Points are grouped by the overrides that can
// change their workload; the job before a group's first point reads that point's
// scenario and loads the workload here, before its child is forked, and every point of
// the group reuses it (its child reads its own scenario: YAML parsing runs in the
// children, in parallel).
// A failure is kept too and raised in the point's child, where it becomes the point's
// error exactly as `memsim run` would print it (scenario errors first, then workload ones).
class PointSource {
public:
    PointSource(const SweepPlan& plan, const ScenarioFile& file) : plan_(plan), file_(file) {}

    void prepare(const SweepPoint& point) {
        current_ = {};
        current_.overrides = run_overrides(plan_, point);
        Loaded& loaded = workloads_[workload_key(current_.overrides)];
        current_.loaded = &loaded;
        if (loaded.tried) return;
        try {
            current_.scenario = file_.load_point(current_.overrides);
        } catch (...) {
            current_.error = std::current_exception();  // the next point of the group tries again
            return;
        }
        loaded.tried = true;
        try {
            loaded.workload = load_workload(*current_.scenario);
        } catch (...) {
            loaded.error = std::current_exception();
        }
    }

    // The job before a group's first point: loads the group's workload (prepare) and
    // measures its no-policy time in its own process, which every point of the group
    // forked later waits for at its end (shared_no_policy_time) instead of simulating it
    // again; a point whose platform speed or semantics differs measures its own. A
    // failure is left to the points, which report it as their own error.
    void prepare_measurement(const SweepPoint& point) {
        prepare(point);
        measurement_.reset();
        if (!current_.scenario || current_.loaded->error) return;
        try {
            measurement_ = shared_no_policy_time(*current_.scenario, current_.loaded->workload);
        } catch (...) {
        }
    }
    int measure() const { return measurement_ ? measurement_->body() : 0; }
    void measurement_started() {
        if (measurement_) measurement_->forked();
        measurement_.reset();
    }

    // In the child: the point's run, as `memsim run SCENARIO --set ... --out DIR`.
    int run(const std::string& out_dir) const {
        if (current_.error) std::rethrow_exception(current_.error);
        Scenario s = current_.scenario ? *current_.scenario : file_.load_point(current_.overrides);
        if (current_.loaded->error) std::rethrow_exception(current_.loaded->error);
        return run_point_here(std::move(s), current_.loaded->workload, out_dir, std::cout, std::cerr);
    }

private:
    struct Loaded {
        bool tried = false;
        Workload workload;
        std::exception_ptr error;
    };
    struct Current {
        std::vector<std::string> overrides;
        std::optional<Scenario> scenario;
        std::exception_ptr error;
        const Loaded* loaded = nullptr;
    };
    const SweepPlan& plan_;
    const ScenarioFile& file_;
    std::map<std::string, Loaded> workloads_;
    Current current_;
    std::optional<ForkedMeasurement> measurement_;
};

}  // namespace

SweepTally run_sweep(const SweepPlan& plan, const std::string& dir, const SweepRunOptions& options, std::ostream& progress) {
    OutputFolder root(dir, "memsim sweep", options.later_round ? EarlierOutputs::results : EarlierOutputs::all);
    write_plan(plan, dir);
    const ScenarioFile file(plan.scenario_file);
    PointSource source(plan, file);
    std::vector<ProcessJob> jobs;
    std::vector<std::optional<std::size_t>> point_of_job;  // none: a group's measurement
    std::set<std::string> groups;
    for (std::size_t index = 0; index < plan.points.size(); ++index) {
        const SweepPoint point = plan.points[index];
        const std::string out = point_dir(dir, point);
        clear_point(out);
        if (!options.process_per_point && groups.insert(workload_key(run_overrides(plan, point))).second) {
            ProcessJob measurement;
            measurement.log_path = "/dev/null";  // its failure is reported by the points
            measurement.prepare = [&source, point] { source.prepare_measurement(point); };
            measurement.body = [&source] { return source.measure(); };
            measurement.started = [&source] { source.measurement_started(); };
            jobs.push_back(std::move(measurement));
            point_of_job.push_back(std::nullopt);
        }
        ProcessJob job;
        job.log_path = (fs::path(out) / "log.txt").string();
        if (options.process_per_point) {
            job.argv = {options.memsim_binary, "run", plan.scenario_file, "--sweep-point"};
            for (const std::string& set : run_overrides(plan, point)) job.argv.insert(job.argv.end(), {"--set", set});
            job.argv.insert(job.argv.end(), {"--out", out});
        } else {
            job.prepare = [&source, point] { source.prepare(point); };
            job.body = [&source, out] { return source.run(out); };
        }
        jobs.push_back(std::move(job));
        point_of_job.push_back(index);
    }
    const std::size_t points = plan.points.size();
    const std::size_t parallel = static_cast<std::size_t>(std::max(1, options.jobs));
    SweepProgress display(points, options.terminal, progress);
    display.set_running(std::min(points, parallel));
    display.redraw();
    std::size_t started = 0, finished = 0;
    std::vector<PointResult> results(points);
    const int stopped_by = run_processes(
        jobs, options.jobs,
        [&](std::size_t job, const ProcessOutcome& outcome) {
            if (!point_of_job[job]) return;
            const std::size_t index = *point_of_job[job];
            ++finished;
            started = std::min(points, finished + parallel);
            PointResult r = read_point_result(dir, plan.points[index]);
            results[index] = r;  // results.csv holds what the folder holds, as `memsim merge` reads it
            if (outcome.exit_code != 0 && r.status == "ok") {  // a summary, but the run still failed
                r.status = "error";
                r.message = fmt::format("exit code {}", outcome.exit_code);
            }
            display.set_running(started - finished);
            display.point_finished(describe(plan, r) + fmt::format(" [{:.1f} s]", outcome.seconds), r.status != "ok");
        },
        [&]() { display.redraw(); });
    display.finish();
    if (stopped_by != 0)  // its points were stopped and reaped: nothing writes into the folder now
        throw StoppedBySignal(stopped_by, fmt::format("interrupted by {}; the running points were stopped, and {} is "
                                                      "marked {} (run the sweep again)",
                                                      signal_name(stopped_by), dir, kIncompleteMark));
    const SweepTally tally = write_results(plan, dir, results);
    root.complete();
    return tally;
}

std::size_t emit_sweep_jobs(const SweepPlan& plan, const std::string& dir, const std::string& memsim_binary) {
    const std::string root = fs::absolute(dir).lexically_normal().string();
    OutputFolder folder(root, "memsim sweep --emit-jobs", EarlierOutputs::all);
    write_plan(plan, root);
    const ScenarioFile file(plan.scenario_file);
    std::string jobs;
    for (const SweepPoint& point : plan.points) {
        const std::string out = point_dir(root, point);
        clear_point(out);
        const std::string scenario_path = (fs::path(out) / "scenario.yaml").string();
        YAML::Emitter yaml;
        yaml << standalone_scenario(file, plan, point, out);
        std::string header = fmt::format("# point {} of sweep '{}' ({})\n", point_name(point), plan.scenario_name,
                                         plan.scenario_file);
        for (std::size_t i = 0; i < plan.parameters.size(); ++i)
            header += fmt::format("#   {} = {}\n", plan.parameters[i].key, point.values[i]);
        write_text_file(scenario_path, header + yaml.c_str() + "\n");
        jobs += fmt::format("{} run {} --out {} > {} 2>&1\n", shell_quote(memsim_binary), shell_quote(scenario_path),
                            shell_quote(out), shell_quote((fs::path(out) / "log.txt").string()));
    }
    write_text_file((fs::path(root) / "jobs.txt").string(), jobs);
    folder.complete();
    return plan.points.size();
}

SweepTally merge_sweep(const std::string& dir, const PlotOptions& plots) {
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0)
        throw InputError(fmt::format("{}: cannot read the sweep folder: {}", dir, path_error_text(errno)));
    if (!S_ISDIR(info.st_mode))
        throw InputError(fmt::format("{}: not a folder; `memsim merge DIR` needs a folder written by `memsim sweep "
                                     "--emit-jobs DIR` or `memsim sweep --out DIR`",
                                     dir));
    // A sweep that did not finish left a plan its points may not match; an interrupted
    // merge only left results to redo.
    if (const auto writer = incomplete_writer(dir); writer && *writer != "memsim merge")
        throw InputError(fmt::format("{}; `memsim merge` reads only a folder whose sweep finished", *incomplete_mark(dir)));
    const fs::path plan_path = fs::path(dir) / kPlanFile;
    std::string text;
    try {
        text = read_input_file(plan_path.string(), "the sweep plan", kMaxOwnOutputBytes);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}; `memsim merge DIR` needs a folder written by `memsim sweep --emit-jobs DIR` or "
                                     "`memsim sweep --out DIR`",
                                     e.what()));
    }
    const SweepPlan plan = plan_from_json(parse_json_input(text, plan_path.string()), plan_path.string());
    OutputFolder folder(dir, "memsim merge", EarlierOutputs::results);
    const SweepTally tally = gather(plan, dir, plots);
    folder.complete();
    return tally;
}

}  // namespace memsim
