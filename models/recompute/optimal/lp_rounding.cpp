#include "models/recompute/optimal/lp_rounding.h"

#include <algorithm>

namespace memsim::optimal {

Schedule schedule_keeping(const RematProblem& p, const std::function<bool(int, int)>& keep) {
    const int n = p.op_count();
    Schedule s = empty_schedule(p);
    std::vector<char> resident(p.values.size(), 0), marked(static_cast<std::size_t>(n), 0);
    for (std::size_t v = 0; v < p.values.size(); ++v)
        if (p.values[v].origin == kBeforeFirstOp) resident[v] = 1;
    std::vector<int> stack;
    for (int k = 0; k < n; ++k) {
        for (std::size_t v = 0; v < p.values.size(); ++v)
            if (resident[v] && p.values[v].recomputable && !keep(k, static_cast<int>(v))) resident[v] = 0;
        std::vector<int> ops;
        const auto need = [&](int root) {
            stack.push_back(root);
            while (!stack.empty()) {
                const int v = stack.back();
                stack.pop_back();
                const Value& value = p.values[v];
                if (resident[v] || !value.recomputable || marked[value.origin]) continue;
                marked[value.origin] = 1;
                ops.push_back(value.origin);
                for (int u : p.ops[value.origin].inputs) stack.push_back(u);
            }
        };
        for (int v : p.ops[k].inputs)
            if (p.values[v].origin != k) need(v);
        if (k == n - 1)
            for (std::size_t v = 0; v < p.values.size(); ++v)
                if (p.values[v].recomputable && p.values[v].keep_to_end && p.values[v].origin < k) need(static_cast<int>(v));
        std::sort(ops.begin(), ops.end());
        for (int j : ops) {
            marked[j] = 0;
            for (int v : p.ops[j].outputs) resident[v] = 1;
        }
        s.recompute[k] = std::move(ops);
        for (int v : p.ops[k].created) resident[v] = 1;
        for (TensorId t : p.workload->ops[k].release) {
            const int v = p.value_of_tensor[t];
            if (v >= 0 && p.values[v].freed_by == k) resident[v] = 0;
        }
    }
    return s;
}

std::optional<Schedule> round_relaxation(const RematProblem& p, const RematMilp& m, const std::vector<double>& lp_solution) {
    std::optional<Schedule> best;
    double best_ms = 0.0;
    for (const double threshold : {0.5, 0.25, 0.75, 0.1, 0.9, 0.01, 0.99}) {
        const Schedule s = schedule_keeping(p, [&](int k, int v) {
            const int col = m.s(v, k);
            if (col == kFixedOne) return true;
            if (col < 0) return false;
            return lp_solution[static_cast<std::size_t>(col)] >= threshold;
        });
        const ScheduleCheck c = check_schedule(p, s);
        if (!c.valid || c.peak_bytes > p.budget) continue;
        if (!best || c.time_ms < best_ms) {
            best = s;
            best_ms = c.time_ms;
        }
    }
    return best;
}

}  // namespace memsim::optimal
