#include "sim/sweep/sweep_runner.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/workload/input_error.h"
#include "sim/output/text_format.h"
#include "sim/scenario/scenario.h"
#include "sim/sweep/point_results.h"
#include "sim/sweep/process_pool.h"
#include "sim/sweep/sweep_plots.h"
#include "sim/sweep/sweep_progress.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

const char* const kPlanFile = "sweep.json";

std::string flag(bool value) { return value ? "true" : "false"; }

std::string describe(const SweepPlan& plan, const PointResult& r) {
    std::string text = point_name(r.point);
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        text += fmt::format(" {}={}", plan.parameters[i].key, r.point.values[i]);
    text += ": " + r.status;
    if (!r.message.empty()) text += " (" + r.message + ")";
    return text;
}

// A point's folder starts empty of results, so an old summary cannot pass for a new one.
void clear_point(const std::string& dir) {
    fs::create_directories(dir);
    for (const char* name : {"summary.json", "log.txt", "events.csv", "gantt.html", "trace.json"})
        fs::remove(fs::path(dir) / name);
}

void write_plan(const SweepPlan& plan, const std::string& dir) {
    fs::create_directories(dir);
    write_text_file((fs::path(dir) / kPlanFile).string(), plan_to_json(plan).dump(2) + "\n");
}

SweepTally gather(const SweepPlan& plan, const std::string& dir) {
    const std::vector<PointResult> results = read_point_results(dir, plan);
    SweepTally tally;
    tally.points = results.size();
    for (const PointResult& r : results) (r.status == "ok" ? tally.ok : tally.failed)++;
    write_text_file((fs::path(dir) / "results.csv").string(), results_csv(plan, results));
    tally.files.push_back("results.csv");
    for (const std::string& plot : write_sweep_plots(plan, results, dir)) tally.files.push_back(plot);
    return tally;
}

// Single-quoted for sh, so paths with spaces survive GNU parallel and bash.
std::string shell_quote(const std::string& text) {
    if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
                             std::string::npos)
        return text;
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The scenario `memsim run` would see for this point, made to stand alone: named, no
// sweep section, data paths absolute, outputs into the point's folder.
YAML::Node standalone_scenario(const SweepPlan& plan, const SweepPoint& point, const std::string& out_dir) {
    const Scenario s = load_scenario(plan.scenario_file, point_overrides(plan, point));
    YAML::Node root = YAML::Clone(s.resolved);
    root.remove("sweep");
    root["name"] = s.name;
    if (!s.workload.profile.empty()) root["workload"]["profile"] = fs::absolute(s.workload.profile).lexically_normal().string();
    if (!s.workload.dtr_log.empty()) root["workload"]["dtr_log"] = fs::absolute(s.workload.dtr_log).lexically_normal().string();
    root["output"]["dir"] = out_dir;
    return root;
}

}  // namespace

std::string current_executable() { return fs::read_symlink("/proc/self/exe").string(); }

SweepTally run_sweep(const SweepPlan& plan, const std::string& dir, const SweepRunOptions& options, std::ostream& progress) {
    write_plan(plan, dir);
    std::vector<ProcessJob> jobs;
    for (const SweepPoint& point : plan.points) {
        const std::string out = point_dir(dir, point);
        clear_point(out);
        ProcessJob job{{options.memsim_binary, "run", plan.scenario_file}, (fs::path(out) / "log.txt").string()};
        for (const std::string& set : point_overrides(plan, point)) job.argv.insert(job.argv.end(), {"--set", set});
        for (const auto& [key, value] : {std::pair{"output.events", plan.events}, {"output.gantt", plan.gantt},
                                         {"output.trace", plan.trace}})
            job.argv.insert(job.argv.end(), {"--set", std::string(key) + "=" + flag(value)});
        job.argv.insert(job.argv.end(), {"--out", out});
        jobs.push_back(std::move(job));
    }
    const std::size_t parallel = static_cast<std::size_t>(std::max(1, options.jobs));
    SweepProgress display(jobs.size(), options.terminal, progress);
    display.set_running(std::min(jobs.size(), parallel));
    display.redraw();
    std::size_t started = 0, finished = 0;
    run_processes(
        jobs, options.jobs,
        [&](std::size_t index, const ProcessOutcome& outcome) {
            ++finished;
            started = std::min(jobs.size(), finished + parallel);
            PointResult r = read_point_result(dir, plan.points[index]);
            if (outcome.exit_code != 0 && r.status == "ok") {  // a summary, but the run still failed
                r.status = "error";
                r.message = fmt::format("exit code {}", outcome.exit_code);
            }
            display.set_running(started - finished);
            display.point_finished(describe(plan, r) + fmt::format(" [{:.1f} s]", outcome.seconds), r.status != "ok");
        },
        [&]() { display.redraw(); });
    display.finish();
    return gather(plan, dir);
}

std::size_t emit_sweep_jobs(const SweepPlan& plan, const std::string& dir, const std::string& memsim_binary) {
    const std::string root = fs::absolute(dir).lexically_normal().string();
    write_plan(plan, root);
    std::string jobs;
    for (const SweepPoint& point : plan.points) {
        const std::string out = point_dir(root, point);
        clear_point(out);
        const std::string scenario_path = (fs::path(out) / "scenario.yaml").string();
        YAML::Emitter yaml;
        yaml << standalone_scenario(plan, point, out);
        std::string header = fmt::format("# point {} of sweep '{}' ({})\n", point_name(point), plan.scenario_name,
                                         plan.scenario_file);
        for (std::size_t i = 0; i < plan.parameters.size(); ++i)
            header += fmt::format("#   {} = {}\n", plan.parameters[i].key, point.values[i]);
        write_text_file(scenario_path, header + yaml.c_str() + "\n");
        jobs += fmt::format("{} run {} --out {} > {} 2>&1\n", shell_quote(memsim_binary), shell_quote(scenario_path),
                            shell_quote(out), shell_quote((fs::path(out) / "log.txt").string()));
    }
    write_text_file((fs::path(root) / "jobs.txt").string(), jobs);
    return plan.points.size();
}

SweepTally merge_sweep(const std::string& dir) {
    const fs::path plan_path = fs::path(dir) / kPlanFile;
    std::ifstream in(plan_path);
    if (!in)
        throw InputError(fmt::format("{}: cannot open; `memsim merge DIR` needs a folder written by "
                                     "`memsim sweep --emit-jobs DIR` or `memsim sweep --out DIR`",
                                     plan_path.string()));
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("{}: invalid JSON: {}", plan_path.string(), e.what()));
    }
    return gather(plan_from_json(json, plan_path.string()), dir);
}

}  // namespace memsim
