#include "plan_replay.h"

#include <algorithm>

#include <fmt/format.h>

namespace memsim {

PlanReplayResult replay_plan(const Workload& w, const ExecPlan& plan) {
    PlanReplayResult r;
    const auto tensor_count = static_cast<TensorId>(w.tensors.size());
    const int op_count = static_cast<int>(w.ops.size());
    std::vector<char> live(w.tensors.size(), 0), released_somewhere(w.tensors.size(), 0);
    for (const Op& op : w.ops)
        for (TensorId t : op.release) released_somewhere[t] = 1;
    std::uint64_t bytes = 0;
    auto take = [&](TensorId t) {
        if (w.tensors[t].alias_of >= 0) return;
        live[t] = 1;
        bytes += w.tensors[t].bytes;
        r.peak_bytes = std::max(r.peak_bytes, bytes);
    };
    auto drop = [&](TensorId t) {
        if (!live[t]) return;
        live[t] = 0;
        bytes -= w.tensors[t].bytes;
    };
    auto fail = [&](std::size_t step, const std::string& what) {
        r.ok = false;
        r.error = fmt::format("step {}: {}", step, what);
        return r;
    };
    for (TensorId t : w.initial_tensors()) take(t);
    int next_op = 0;
    for (std::size_t s = 0; s < plan.size(); ++s) {
        const PlanStep& step = plan[s];
        if (step.kind == StepKind::Release) {
            if (step.tensor < 0 || step.tensor >= tensor_count) return fail(s, fmt::format("release of unknown tensor {}", step.tensor));
            if (!live[step.tensor])
                return fail(s, fmt::format("release of tensor {} '{}' which is not resident", step.tensor,
                                           w.tensors[step.tensor].name));
            drop(step.tensor);
            ++r.releases;
            continue;
        }
        if (step.op < 0 || step.op >= op_count) return fail(s, fmt::format("unknown op {}", step.op));
        const Op& op = w.ops[step.op];
        const bool recompute = step.kind == StepKind::Recompute;
        if (!recompute && step.op != next_op)
            return fail(s, fmt::format("compute of op {} where op {} is next", step.op, next_op));
        if (recompute && step.op >= next_op)
            return fail(s, fmt::format("recompute of op {} which has not been computed yet", step.op));
        if (!recompute)
            for (TensorId t : op.arrivals) take(t);  // constants declared just before this op
        for (TensorId t : op.inputs)
            if (!live[w.tensors[t].alias_of >= 0 ? w.tensors[t].alias_of : t])  // an alias needs its storage
                return fail(s, fmt::format("{} of op {} '{}': input {} '{}' is not resident", recompute ? "recompute" : "compute",
                                           step.op, op.name, t, w.tensors[t].name));
        for (TensorId t : op.outputs)
            if (live[t])
                return fail(s, fmt::format("{} of op {} '{}': output {} '{}' is already resident",
                                           recompute ? "recompute" : "compute", step.op, op.name, t, w.tensors[t].name));
        for (TensorId t : op.outputs) take(t);
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) take(e.tensor);
        for (const ScratchEvent& e : op.scratch)
            if (!e.alloc) drop(e.tensor);
        if (recompute) {
            ++r.recomputed_ops;
            r.recompute_ms += op.cost_ms;
            for (const ScratchEvent& e : op.scratch) drop(e.tensor);
        } else {
            r.compute_ms += op.cost_ms;
            ++next_op;
            for (TensorId t : op.release)
                if (w.tensors[t].producer != kNoOp) drop(t);  // a source goes with the plan's own Release
        }
    }
    if (next_op != op_count) return fail(plan.size(), fmt::format("op {} is never computed", next_op));
    for (TensorId t = 0; t < tensor_count; ++t)
        if (live[t] && released_somewhere[t]) r.leaked_bytes += w.tensors[t].bytes;
    return r;
}

}  // namespace memsim
