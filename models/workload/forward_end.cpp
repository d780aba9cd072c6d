#include "models/workload/forward_end.h"

#include <algorithm>

namespace memsim {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ForwardEndGuess by_live_bytes(const Workload& w) {
    std::int64_t live = 0, best = -1;
    int best_end = static_cast<int>(w.ops.size());
    for (TensorId t : w.initial_tensors()) live += static_cast<std::int64_t>(w.tensors[t].bytes);
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i) {
        const Op& op = w.ops[i];
        for (TensorId t : op.arrivals) live += static_cast<std::int64_t>(w.tensors[t].bytes);
        for (TensorId t : op.outputs) live += static_cast<std::int64_t>(w.tensors[t].bytes);
        for (TensorId t : op.release) live -= static_cast<std::int64_t>(w.tensors[t].bytes);
        if (live > best) {
            best = live;
            best_end = i + 1;
        }
    }
    return {best_end, "inferred: no OneHot operator; the boundary with the most live bytes (after op " +
                          std::to_string(best_end - 1) + ")"};
}

}  // namespace

ForwardEndGuess infer_forward_end(const Workload& w) {
    const int n = static_cast<int>(w.ops.size());
    std::vector<int> depth(w.tensors.size(), 0);
    std::vector<char> label(w.tensors.size(), 0);
    bool has_one_hot = false;
    for (const Op& op : w.ops) {
        int d = 0;
        bool is_label = ends_with(op.name, "OneHot");
        has_one_hot = has_one_hot || is_label;
        for (TensorId t : op.inputs) {
            d = std::max(d, depth[t] + 1);
            is_label = is_label || label[t];
        }
        for (TensorId t : op.outputs) {
            depth[t] = d;
            label[t] = is_label;
        }
    }
    if (!has_one_hot) return by_live_bytes(w);

    int junction = -1, best_depth = -1;
    TensorId prediction = -1;
    for (int i = 0; i < n; ++i) {
        const Op& op = w.ops[i];
        bool reads_label = false;
        TensorId deepest = -1;
        for (TensorId t : op.inputs) {
            if (label[t]) reads_label = true;
            else if (deepest < 0 || depth[t] > depth[deepest]) deepest = t;
        }
        if (reads_label && deepest >= 0 && depth[deepest] > best_depth) {
            best_depth = depth[deepest];
            junction = i;
            prediction = deepest;
        }
    }
    if (junction < 0) return by_live_bytes(w);

    const auto& junction_outputs = w.ops[junction].outputs;
    bool read_again = false;
    for (int i = junction + 1; i < n && !read_again; ++i) {
        const auto& in = w.ops[i].inputs;
        const bool reads_prediction = std::find(in.begin(), in.end(), prediction) != in.end();
        const bool reads_junction = std::any_of(in.begin(), in.end(), [&](TensorId t) {
            return std::find(junction_outputs.begin(), junction_outputs.end(), t) != junction_outputs.end();
        });
        read_again = reads_prediction && reads_junction;
    }
    const int fe = read_again ? junction + 1 : junction;
    return {fe, "inferred: loss junction at op " + std::to_string(junction) + " (" + w.ops[junction].name +
                    ") reads the label and the prediction (tensor " + w.tensors[prediction].name + "); " +
                    (read_again ? "it computes the loss, so the forward pass ends after it"
                                : "it is the gradient seed, so the backward pass starts there")};
}

}  // namespace memsim
