#include "models/swap/swap_plan.h"

#include <algorithm>
#include <set>

#include "models/checked_math.h"

namespace memsim {

using Window = FeatureMapWindow;

std::vector<Window> feature_map_windows(const Workload& w) {
    const int f = w.forward_end, n = static_cast<int>(w.ops.size());
    std::vector<char> is_fm(w.tensors.size(), 0);
    for (TensorId t : feature_maps(w)) is_fm[t] = 1;
    std::vector<Window> windows;
    std::vector<char> chosen(w.tensors.size(), 0);
    for (int i = f - 1; i >= 0; --i) {
        auto visit = [&](TensorId t) {
            if (is_fm[t] && !chosen[t]) {
                chosen[t] = 1;
                windows.push_back({t, i, -1});
            }
        };
        for (TensorId t : w.ops[i].inputs) visit(t);
        for (TensorId t : w.ops[i].outputs) visit(t);
    }
    std::vector<int> first_bwd_read(w.tensors.size(), -1);
    for (int i = f; i < n; ++i)
        for (TensorId t : w.ops[i].inputs)
            if (first_bwd_read[t] < 0) first_bwd_read[t] = i;
    for (Window& win : windows) win.in_op = first_bwd_read[win.tensor];
    return windows;
}

SwapPlan plan_from_windows(const Workload& w, const std::vector<Window>& windows, const std::vector<char>& take) {
    const int n = static_cast<int>(w.ops.size());
    SwapPlan plan;
    plan.out_after.assign(n, {});
    plan.in_for.assign(n, {});
    // Outs: in the order the reference builds them (op F-1 down to 0, inputs then outputs).
    for (std::size_t k = 0; k < windows.size(); ++k) {
        if (!take[k]) continue;
        plan.out_after[windows[k].out_op].push_back(windows[k].tensor);
        plan.selected.push_back(windows[k].tensor);
        plan.selected_bytes += w.tensors[windows[k].tensor].bytes;
    }
    // Ins: in the consumer's input order.
    std::vector<char> swapped(w.tensors.size(), 0);
    for (std::size_t k = 0; k < windows.size(); ++k)
        if (take[k] && windows[k].in_op >= 0) swapped[windows[k].tensor] = 1;
    for (int i = w.forward_end; i < n; ++i)
        for (TensorId t : w.ops[i].inputs)
            if (swapped[t]) {
                plan.in_for[i].push_back(t);
                swapped[t] = 0;
            }
    return plan;
}

std::vector<std::int64_t> op_allocation_bytes(const Workload& w) {
    std::vector<std::int64_t> bytes(w.ops.size(), 0);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Op& op = w.ops[i];
        for (TensorId t : op.arrivals) bytes[i] += static_cast<std::int64_t>(w.tensors[t].bytes);
        for (TensorId t : op.outputs) bytes[i] += static_cast<std::int64_t>(w.tensors[t].bytes);
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) bytes[i] += static_cast<std::int64_t>(w.tensors[e.tensor].bytes);
    }
    return bytes;
}

std::vector<std::int64_t> live_bytes_during(const Workload& w) {
    const int n = static_cast<int>(w.ops.size());
    const auto alloc = op_allocation_bytes(w);
    std::vector<std::int64_t> during(n, 0);
    std::int64_t live = 0;
    for (TensorId t : w.initial_tensors()) live += static_cast<std::int64_t>(w.tensors[t].bytes);
    for (int i = 0; i < n; ++i) {
        const Op& op = w.ops[i];
        std::int64_t scratch = 0;
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) scratch += static_cast<std::int64_t>(w.tensors[e.tensor].bytes);
        during[i] = live + alloc[i];
        live += alloc[i] - scratch;  // scratch is gone by the op's end
        for (TensorId t : op.release) live -= static_cast<std::int64_t>(w.tensors[t].bytes);
    }
    return during;
}

std::vector<std::int64_t> planned_live_during(const Workload& w, const SwapPlan& plan) {
    const int n = static_cast<int>(w.ops.size());
    auto during = live_bytes_during(w);
    std::vector<int> out_op(w.tensors.size(), -1), in_op(w.tensors.size(), n);
    for (int i = 0; i < n && i < static_cast<int>(plan.out_after.size()); ++i)
        for (TensorId t : plan.out_after[i]) out_op[t] = i;
    for (int i = 0; i < n && i < static_cast<int>(plan.in_for.size()); ++i)
        for (TensorId t : plan.in_for[i]) in_op[t] = i;
    // Each swapped tensor is absent over (out_op, in_op): a difference array, summed once
    // (a window spans the whole pass in a chain: walking each one was quadratic).
    std::vector<std::int64_t> absent(static_cast<std::size_t>(n) + 1, 0);
    for (TensorId t : plan.selected)
        if (out_op[t] >= 0 && out_op[t] + 1 < in_op[t]) {
            absent[out_op[t] + 1] += static_cast<std::int64_t>(w.tensors[t].bytes);
            absent[in_op[t]] -= static_cast<std::int64_t>(w.tensors[t].bytes);
        }
    std::int64_t away = 0;
    for (int i = 0; i < n; ++i) {
        away += absent[i];
        during[i] -= away;
    }
    return during;
}

SwapPlan plan_feature_maps(const Workload& w) {
    const auto windows = feature_map_windows(w);
    return plan_from_windows(w, windows, std::vector<char>(windows.size(), 1));
}

SwapPlan plan_budget(const Workload& w, std::uint64_t budget) {
    const auto windows = feature_map_windows(w);
    const int n = static_cast<int>(w.ops.size());
    std::vector<std::int64_t> during = live_bytes_during(w);
    // Compute time prefix sums for idle time in ms.
    std::vector<double> time_before(n + 1, 0.0);
    for (int i = 0; i < n; ++i) time_before[i + 1] = time_before[i] + w.ops[i].cost_ms;
    std::vector<char> take(windows.size(), 0);
    // A swapped tensor is absent during ops (out_op, in_op) exclusive.
    auto absent_range = [&](const Window& win) {
        const int end = win.in_op < 0 ? n : win.in_op;
        return std::pair{win.out_op + 1, end};
    };
    for (;;) {
        const auto worst = std::max_element(during.begin(), during.end());
        if (worst == during.end() || *worst <= saturated_signed(budget)) break;
        const int at = static_cast<int>(worst - during.begin());
        int best = -1;
        double best_score = -1;
        for (std::size_t k = 0; k < windows.size(); ++k) {
            if (take[k]) continue;
            auto [from, to] = absent_range(windows[k]);
            if (at < from || at >= to) continue;
            const double idle_ms = time_before[to] - time_before[from];
            const double score = static_cast<double>(w.tensors[windows[k].tensor].bytes) * std::max(idle_ms, 1e-9);
            if (score > best_score) {
                best_score = score;
                best = static_cast<int>(k);
            }
        }
        if (best < 0) break;  // nothing swappable covers the worst op: the engine will report it
        take[best] = 1;
        auto [from, to] = absent_range(windows[best]);
        for (int i = from; i < to; ++i) during[i] -= static_cast<std::int64_t>(w.tensors[windows[best].tensor].bytes);
    }
    return plan_from_windows(w, windows, take);
}

SwapPlan empty_swap_plan(const Workload& w) {
    return SwapPlan{std::vector<std::vector<TensorId>>(w.ops.size()), std::vector<std::vector<TensorId>>(w.ops.size()), {}, 0};
}

}  // namespace memsim
