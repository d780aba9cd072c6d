#include "sim/app/compare/compare_run.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/recompute/optimal/optimal_planner.h"
#include "models/recompute/optimal/optimal_row.h"
#include "models/workload/input_error.h"
#include "sim/engine/run_status.h"
#include "sim/report/text_format.h"
#include "sim/scenario/scenario.h"
#include "sim/report/charts/sweep_plots.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

double number(const PointResult& r, const char* field, double otherwise) {
    if (r.summary.is_object() && r.summary.contains(field) && r.summary[field].is_number()) return r.summary[field].get<double>();
    return otherwise;
}

// Finished runs first, then by time, then by peak.
bool better(const PointResult& a, const PointResult& b) {
    const bool ok_a = status_finished(a.status), ok_b = status_finished(b.status);
    if (ok_a != ok_b) return ok_a;
    if (!ok_a) return false;
    const double ta = number(a, "time_ms", 0), tb = number(b, "time_ms", 0);
    if (ta != tb) return ta < tb;
    return number(a, "peak_bytes", 0) < number(b, "peak_bytes", 0);
}

std::string bytes_cell(const PointResult& r, std::initializer_list<const char*> fields) {
    if (!r.summary.is_object()) return "-";
    std::uint64_t total = 0;
    for (const char* f : fields) {
        if (!r.summary.contains(f) || !r.summary[f].is_number_unsigned()) return "-";
        total += r.summary[f].get<std::uint64_t>();
    }
    return format_bytes_human(total);
}

std::string field_cell(const PointResult& r, const char* field, const char* format) {
    if (!r.summary.is_object() || !r.summary.contains(field) || !r.summary[field].is_number()) return "-";
    return fmt::format(fmt::runtime(format), r.summary[field].get<double>());
}

// The optimal planner's run, when it finished: every finished run is measured against it.
const PointResult* optimal_run(const CompareOutcome& outcome) {
    for (const CompareRow& row : outcome.ranked)
        if (row.candidate.family == kOptimalPlanner && row.result.status == "ok") return &row.result;
    return nullptr;
}

double detail(const PointResult& r, const char* key, double otherwise) {
    if (!r.summary.is_object() || !r.summary.contains("details") || !r.summary["details"].contains(key)) return otherwise;
    const auto& v = r.summary["details"][key];
    return v.is_number() ? v.get<double>() : otherwise;
}

bool proven_optimal(const PointResult& best) { return detail(best, "optimal_proven", 0) > 0.5; }

// "+12.4%": how much longer than the optimal plan a finished run took. An optimum not
// proven is no yardstick (the best known plan would read "+0.0%"): every run, the
// planner's too, is then measured against the bound, which no plan of the class beats.
std::string versus_optimal_cell(const PointResult& r, const PointResult& best) {
    if (&r == &best && proven_optimal(best)) return "optimal";
    if (r.status != "ok") return "-";
    const double t = number(r, "time_ms", 0);
    const double yardstick = proven_optimal(best) ? number(best, "time_ms", 0) : detail(best, "optimal_bound_ms", 0);
    return yardstick > 0 ? fmt::format("{:+.1f}%", 100.0 * (t / yardstick - 1.0)) : "-";
}

// How a point without a summary.json says why (sim/report/point_results.cpp).
constexpr std::string_view kLogEnds = "log.txt ends: ";

std::string report(const Scenario& base, const CompareOutcome& outcome) {
    std::string out = fmt::format("compare: {} policy families on {} at its budget ({})\n", outcome.ranked.size(), base.name,
                                  base.platform.memory_budget
                                      ? format_bytes_human(*base.platform.memory_budget)
                                      : fmt::format("budget_ratio {:g}", base.platform.memory_budget_ratio.value_or(0)));
    const PointResult* best = optimal_run(outcome);
    std::vector<std::vector<std::string>> rows{
        {"rank", "policy", "status", "time_ms", "overhead", "peak", "moved", "recomputed"}};
    if (best) rows[0].push_back(proven_optimal(*best) ? "vs optimal" : "vs bound");
    int rank = 0;
    for (const CompareRow& row : outcome.ranked) {
        const PointResult& r = row.result;
        const bool ok = r.status == "ok";
        // A run that stopped has no iteration time: its clock says when it stopped.
        rows.push_back({ok ? std::to_string(++rank) : "-", row.candidate.label, r.status,
                        ok ? field_cell(r, "time_ms", "{:.3f}") : "-", ok ? field_cell(r, "overhead", "{:.3f}x") : "-", bytes_cell(r, {"peak_bytes"}),
                        bytes_cell(r, {"bytes_written", "bytes_read"}), field_cell(r, "recomputed_ops", "{:.0f}")});
        if (best) rows.back().push_back(versus_optimal_cell(r, *best));
    }
    out += aligned_table(rows);
    out += "time_ms: simulated iteration time; moved: bytes swapped out and back in (to the disk or host RAM); recomputed: operators re-run\n";
    if (best && proven_optimal(*best)) {
        out += fmt::format("optimal planner: {} by {}; no recomputation plan of its class runs in less than {:.3f} ms; vs "
                           "optimal: each run's time over the optimal plan's (docs/optimal.md)\n",
                           optimal::status_text(1.0, 0.0), optimal::method_name(detail(*best, "optimal_method", 0)),
                           detail(*best, "optimal_bound_ms", 0));
        for (const CompareRow& row : outcome.ranked)
            if (&row.result != best && row.result.status == "ok")
                out += fmt::format("{}: {} over optimal\n", row.candidate.family, versus_optimal_cell(row.result, *best));
    } else if (best) {
        const double bound = detail(*best, "optimal_bound_ms", 0);
        out += fmt::format("optimal planner: best known plan (optimum not proven, bound {:.3f} ms, gap {:.2f}%) by {}; no "
                           "recomputation plan of its class runs in less than {:.3f} ms; vs bound: each run's time over "
                           "that bound, the planner's own plan included (docs/optimal.md)\n",
                           bound, 100 * detail(*best, "optimal_gap", 0), optimal::method_name(detail(*best, "optimal_method", 0)),
                           bound);
        for (const CompareRow& row : outcome.ranked)
            if (row.result.status == "ok")
                out += fmt::format("{}: {} over the bound\n", row.candidate.family, versus_optimal_cell(row.result, *best));
    }
    for (const CompareRow& row : outcome.ranked)
        if (row.variants > 1)
            out += fmt::format("{}: the best of {} prefetch rules (every run is in results.csv)\n", row.candidate.family,
                               row.variants);
    // Runs that stopped for one reason are said once: an error in the scenario (a budget
    // below an operator's working set) stops every policy alike, each from its own folder.
    std::vector<std::pair<std::string, std::vector<const CompareRow*>>> reasons;  // in ranking order
    for (const CompareRow& row : outcome.ranked) {
        if (row.result.status == "ok" || row.result.message.empty()) continue;
        std::string reason = row.result.message;
        if (const std::size_t at = reason.find(kLogEnds); at != std::string::npos) reason = reason.substr(at + kLogEnds.size());
        auto same = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == reason; });
        if (same == reasons.end()) reasons.push_back({reason, {&row}});
        else same->second.push_back(&row);
    }
    for (const auto& [reason, rows_of] : reasons) {
        if (rows_of.size() == 1) {
            out += fmt::format("{}: {}\n", rows_of.front()->candidate.label, rows_of.front()->result.message);
            continue;
        }
        std::vector<std::string> labels;
        for (const CompareRow* row : rows_of) labels.push_back(row->candidate.label);
        if (rows_of.size() == outcome.ranked.size()) out += fmt::format("every policy ({}): {}\n", labels.size(), reason);
        else out += fmt::format("{} policies ({}): {}\n", labels.size(), fmt::join(labels, ", "), reason);
    }
    // What no policy can go below, said once when runs ran out of memory (sim/app/run/memory_floor.h).
    for (const CompareRow& row : outcome.ranked) {
        if (row.result.status != "oom" || !row.result.summary.is_object() || !row.result.summary.contains("warnings")) continue;
        const auto floor = std::find_if(row.result.summary["warnings"].begin(), row.result.summary["warnings"].end(),
                                        [](const nlohmann::json& w) { return w.is_string() && w.get<std::string>().rfind("constants (", 0) == 0; });
        if (floor == row.result.summary["warnings"].end()) continue;
        out += "out of memory: " + floor->get<std::string>() + "\n";
        break;
    }
    for (const std::string& s : outcome.skipped) out += "skipped " + s + "\n";
    return out;
}

// The plots again, now that the ranking is known: the policies by their labels (not by
// the keys of their policy maps), every run in ranking order (the variants a family's
// best stands for too, each at its own time; failures last), the best one ringed.
void rewrite_ranked_plots(const SweepPlan& plan, const std::vector<PolicyCandidate>& candidates, const CompareOutcome& outcome) {
    SweepPlan shown = plan;
    PlotOptions options;
    std::vector<PointResult> runs = read_point_results(outcome.dir, plan);
    std::stable_sort(runs.begin(), runs.end(), better);
    std::vector<std::string> order;
    for (const PointResult& run : runs) order.push_back(run.point.values.at(0));
    for (const std::string& value : plan.parameters[0].values)
        if (std::find(order.begin(), order.end(), value) == order.end()) order.push_back(value);
    shown.parameters[0].values = order;
    for (std::size_t i = 0; i < plan.points.size() && i < candidates.size(); ++i)
        options.labels[plan.points[i].values.at(0)] = candidates[i].label;
    if (!outcome.ranked.empty() && outcome.ranked.front().result.status == "ok") {
        options.marked_value = outcome.ranked.front().result.point.values.at(0);
        options.marked_label = "the best: " + outcome.ranked.front().candidate.label;
    }
    write_sweep_plots(shown, runs, outcome.dir, options);
}

}  // namespace

CompareOutcome run_compare(const CompareRequest& request, std::ostream& progress) {
    const Scenario base = load_scenario(request.scenario_file, request.overrides);
    if (!base.platform.memory_budget && !base.platform.memory_budget_ratio)
        throw InputError(fmt::format("{}: compare runs every policy at one budget, and the scenario has none: set "
                                     "platform.memory.budget or platform.memory.budget_ratio (e.g. --set "
                                     "platform.memory.budget_ratio=0.6)",
                                     request.scenario_file));
    CompareOutcome outcome;
    outcome.dir = request.dir.empty() ? (fs::path(base.output.dir) / "compare").string() : request.dir;

    SweepPlan plan;
    plan.scenario_file = fs::absolute(request.scenario_file).lexically_normal().string();
    plan.scenario_name = base.name;
    plan.overrides = request.overrides;
    plan.parameters = {{"policy", {}}};
    plan.outputs = sweep_point_outputs(base.output);
    plan.default_dir = outcome.dir;
    std::vector<PolicyCandidate> runnable;
    for (PolicyCandidate& c : policy_candidates(base, request.families)) {
        const std::string value = flow_yaml(c.policy);
        std::vector<std::string> sets = request.overrides;
        sets.push_back("policy=" + value);
        try {
            validate_policy(load_scenario(request.scenario_file, sets));
        } catch (const InputError& e) {
            outcome.skipped.push_back(fmt::format("{}: {}", c.label, e.what()));
            continue;
        }
        plan.parameters[0].values.push_back(value);
        plan.points.push_back({static_cast<int>(plan.points.size()) + 1, {value}});
        runnable.push_back(std::move(c));
    }
    if (plan.points.empty()) throw InputError(fmt::format("{}: no policy to compare can run on it", request.scenario_file));
    const SweepTally tally = run_sweep(plan, outcome.dir, request.run, progress);
    for (const std::string& file : tally.files) outcome.files.push_back((fs::path(outcome.dir) / file).string());

    std::map<std::string, std::size_t> best;  // family -> index in ranked
    for (std::size_t i = 0; i < plan.points.size(); ++i) {
        CompareRow row{runnable[i], read_point_result(outcome.dir, plan.points[i]), 1};
        const auto it = best.find(row.candidate.family);
        if (it == best.end()) {
            best[row.candidate.family] = outcome.ranked.size();
            outcome.ranked.push_back(std::move(row));
            continue;
        }
        CompareRow& kept = outcome.ranked[it->second];
        row.variants = kept.variants + 1;
        if (better(row.result, kept.result)) kept = std::move(row);
        else kept.variants++;
    }
    std::stable_sort(outcome.ranked.begin(), outcome.ranked.end(),
                     [](const CompareRow& a, const CompareRow& b) { return better(a.result, b.result); });
    rewrite_ranked_plots(plan, runnable, outcome);
    outcome.report = report(base, outcome);
    return outcome;
}

}  // namespace memsim
