#include "models/recompute/sublinear.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/biconnected_components.hpp>

#include "models/recompute/plan_builder.h"

namespace memsim {

namespace {

int forward_op_count(const Workload& w) { return std::clamp(w.forward_end, 0, static_cast<int>(w.ops.size())); }

}  // namespace

std::vector<int> forward_articulation_ops(const Workload& w) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    const int forward = forward_op_count(w);
    Graph g(static_cast<std::size_t>(forward));
    for (int i = 0; i < forward; ++i)
        for (TensorId t : w.ops[i].inputs) {
            const int p = w.tensors[t].producer;
            if (p != kNoOp && p < forward && p != i) boost::add_edge(static_cast<std::size_t>(p), static_cast<std::size_t>(i), g);
        }
    std::vector<std::size_t> cut;
    boost::articulation_points(g, std::back_inserter(cut));
    std::vector<int> out(cut.begin(), cut.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<TensorId> sublinear_checkpoints(const Workload& w) {
    const int forward = forward_op_count(w);
    const std::vector<TensorId> fms = feature_maps(w);
    std::vector<char> is_fm(w.tensors.size(), 0);
    for (TensorId t : fms) is_fm[t] = 1;
    const double threshold = static_cast<double>(feature_map_bytes(w)) / std::sqrt(static_cast<double>(std::max(forward, 1)));
    const std::vector<int> cut = forward_articulation_ops(w);
    std::vector<TensorId> checkpoints;
    double accumulated = 0.0;
    for (int i = 0; i < forward; ++i) {
        for (TensorId t : w.ops[i].outputs)
            if (is_fm[t]) accumulated += static_cast<double>(w.tensors[t].bytes);
        if (accumulated > threshold && std::binary_search(cut.begin(), cut.end(), i)) {
            for (TensorId t : w.ops[i].outputs)
                if (is_fm[t]) checkpoints.push_back(t);
            accumulated = 0.0;
        }
    }
    std::sort(checkpoints.begin(), checkpoints.end());
    return checkpoints;
}

ExecPlan plan_sublinear(const Workload& w, std::uint64_t /*budget_bytes*/, double recompute_limit_ms) {
    const int n = static_cast<int>(w.ops.size());
    const int forward = forward_op_count(w);
    const std::vector<TensorId> checkpoints = sublinear_checkpoints(w);
    PlanBuilder b(w, /*free_chain_ancestors=*/false);
    b.set_recompute_limit_ms(recompute_limit_ms);
    std::vector<std::vector<TensorId>> drop_after(static_cast<std::size_t>(std::max(forward, 1)));
    for (TensorId t : feature_maps(w)) {
        if (w.tensors[t].producer == kNoOp || std::binary_search(checkpoints.begin(), checkpoints.end(), t)) continue;
        if (!b.used_from(t, forward)) continue;  // not needed by the backward pass: nothing to recompute
        int last = w.tensors[t].producer;
        for (int i = last; i < forward; ++i)
            if (std::find(w.ops[i].inputs.begin(), w.ops[i].inputs.end(), t) != w.ops[i].inputs.end()) last = i;
        drop_after[static_cast<std::size_t>(last)].push_back(t);
    }
    for (int i = 0; i < n; ++i) {
        b.regenerate_inputs(i);
        b.compute(i);
        if (i < forward)
            for (TensorId t : drop_after[static_cast<std::size_t>(i)]) b.release(t);
    }
    return b.finish();
}

}  // namespace memsim
