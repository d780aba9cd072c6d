#include "models/recompute/optimal/schedule.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace memsim::optimal {

namespace {

// Walks the runs keeping one open copy per value; `on_error` gets the first read that
// finds its value absent (then the walk stops).
struct CopyWalk {
    std::vector<Residency> done;
    std::string error;

    CopyWalk(const RematProblem& p, const std::vector<Run>& runs) {
        const int none = -3;
        std::vector<int> created(p.values.size(), none), last_read(p.values.size(), none), freed_at(p.values.size(), none);
        const auto close = [&](int v) {
            if (created[v] == none) return;
            done.push_back({v, created[v], last_read[v]});
            created[v] = none;
        };
        const auto open = [&](int v, int run) {
            close(v);
            created[v] = run;
            last_read[v] = run;
            freed_at[v] = none;
        };
        for (std::size_t v = 0; v < p.values.size(); ++v)
            if (p.values[v].origin == kBeforeFirstOp) open(static_cast<int>(v), -1);
        for (int r = 0; r < static_cast<int>(runs.size()); ++r) {
            const Run& run = runs[r];
            const OpInfo& op = p.ops[run.op];
            if (run.compute)
                for (int v : op.arrivals) open(v, r);  // resident before the op reads them
            for (int v : op.inputs) {
                if (created[v] == none || freed_at[v] != none) {
                    const Value& value = p.values[v];
                    const std::string why =
                        created[v] == none ? std::string("it is not resident")
                                           : fmt::format("op {}'s release list freed it", value.freed_by);
                    error = fmt::format("stage {}: {} of op {} reads tensor '{}', but {}", run.stage,
                                        run.compute ? "the compute" : "a recomputation", run.op,
                                        p.workload->tensors[value.tensor].name, why);
                    return;
                }
                last_read[v] = r;
            }
            for (int v : run.compute ? op.created : op.outputs)
                if (created[v] != r) open(v, r);
            if (run.compute)
                for (TensorId t : p.workload->ops[run.op].release) {
                    const int v = p.value_of_tensor[t];
                    if (v >= 0 && p.values[v].freed_by == run.op && created[v] != none) freed_at[v] = r;
                }
        }
        for (std::size_t v = 0; v < p.values.size(); ++v) {
            if (created[v] == none) continue;
            if (p.values[v].keep_to_end && freed_at[v] == none) last_read[v] = kEndOfIteration;
            close(static_cast<int>(v));
        }
        std::stable_sort(done.begin(), done.end(), [](const Residency& a, const Residency& b) {
            return a.created != b.created ? a.created < b.created : a.value < b.value;
        });
    }
};

}  // namespace

Schedule empty_schedule(const RematProblem& p) { return Schedule{std::vector<std::vector<int>>(p.ops.size())}; }

std::vector<Run> schedule_runs(const RematProblem& p, const Schedule& s) {
    std::vector<Run> runs;
    for (int k = 0; k < p.op_count(); ++k) {
        if (k < static_cast<int>(s.recompute.size()))
            for (int j : s.recompute[k]) runs.push_back({k, j, false});
        runs.push_back({k, k, true});
    }
    return runs;
}

std::vector<Residency> residencies(const RematProblem& p, const Schedule& s, const std::vector<Run>& runs) {
    (void)s;
    CopyWalk walk(p, runs);
    if (!walk.error.empty()) throw std::logic_error("recomputation schedule: " + walk.error);
    return std::move(walk.done);
}

ScheduleCheck check_schedule(const RematProblem& p, const Schedule& s) {
    ScheduleCheck c;
    const std::vector<Run> runs = schedule_runs(p, s);
    for (const Run& run : runs) {
        c.time_ms += p.ops[run.op].cost_ms;
        if (!run.compute) {
            c.recompute_ms += p.ops[run.op].cost_ms;
            ++c.recomputed_ops;
        }
    }
    CopyWalk walk(p, runs);
    if (!walk.error.empty()) {
        c.valid = false;
        c.error = walk.error;
        return c;
    }
    // Live bytes while run r runs: every copy created before it and read at or after it,
    // plus what the run allocates.
    const auto n = static_cast<int>(runs.size());
    std::vector<std::int64_t> delta(static_cast<std::size_t>(n) + 1, 0);
    std::uint64_t initial = 0;
    for (const Residency& res : walk.done) {
        const std::uint64_t bytes = p.values[res.value].bytes;
        if (res.created == -1) initial += bytes;
        const int from = res.created + 1;
        const int to = res.last_read == kEndOfIteration ? n - 1 : res.last_read;
        if (from > to) continue;
        delta[static_cast<std::size_t>(from)] += static_cast<std::int64_t>(bytes);
        delta[static_cast<std::size_t>(to) + 1] -= static_cast<std::int64_t>(bytes);
    }
    c.peak_bytes = initial;  // before op 0, every initial constant is resident
    std::int64_t live = 0;
    for (int r = 0; r < n; ++r) {
        live += delta[static_cast<std::size_t>(r)];
        const OpInfo& op = p.ops[runs[r].op];
        const std::uint64_t now = static_cast<std::uint64_t>(live) + (runs[r].compute ? op.compute_bytes : op.recompute_bytes);
        if (now > c.peak_bytes) {
            c.peak_bytes = now;
            c.peak_run = r;
        }
    }
    return c;
}

ExecPlan to_exec_plan(const RematProblem& p, const Schedule& s) {
    const std::vector<Run> runs = schedule_runs(p, s);
    const std::vector<Residency> copies = residencies(p, s, runs);
    // Releases after each run (index r + 1; 0: before the first run).
    std::vector<std::vector<TensorId>> after(runs.size() + 1);
    for (const Residency& res : copies) {
        if (res.last_read == kEndOfIteration) continue;
        const Value& v = p.values[res.value];
        const bool freed_by_release_list = res.last_read >= 0 && runs[res.last_read].compute && v.freed_by == runs[res.last_read].op;
        if (!freed_by_release_list) after[static_cast<std::size_t>(res.last_read + 1)].push_back(v.tensor);
    }
    for (auto& list : after) std::sort(list.begin(), list.end());
    ExecPlan plan;
    plan.reserve(runs.size() + copies.size());
    for (TensorId t : after[0]) plan.push_back({StepKind::Release, -1, t});
    for (std::size_t r = 0; r < runs.size(); ++r) {
        plan.push_back({runs[r].compute ? StepKind::Compute : StepKind::Recompute, runs[r].op, -1});
        for (TensorId t : after[r + 1]) plan.push_back({StepKind::Release, -1, t});
    }
    return plan;
}

Schedule from_exec_plan(const RematProblem& p, const ExecPlan& plan) {
    Schedule s = empty_schedule(p);
    int stage = 0;
    for (const PlanStep& step : plan) {
        if (step.kind == StepKind::Compute) {
            ++stage;
            continue;
        }
        if (step.kind == StepKind::Recompute && stage < p.op_count() && p.ops[step.op].recomputable())
            s.recompute[stage].push_back(step.op);
    }
    for (auto& list : s.recompute) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return s;
}

}  // namespace memsim::optimal
