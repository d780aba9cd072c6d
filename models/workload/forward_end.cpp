#include "models/workload/forward_end.h"

#include <algorithm>

namespace memsim {

namespace {

// Two chains of single-input producers (a tensor, its producer's input, ...) that end
// alike meet at their first common tensor: the copies between the two tensors are the
// steps from each to it. -1 when the chains end differently.
int copies_between(const std::vector<TensorId>& a, const std::vector<TensorId>& b) {
    if (a.back() != b.back()) return -1;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto it = std::find(b.begin(), b.end(), a[i]);
        if (it != b.end()) return static_cast<int>(i + static_cast<std::size_t>(it - b.begin()));
    }
    return -1;
}

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

    // A tensor stands for what it copies: each compared tensor is resolved through its
    // chain of single-input producers (layout copies such as MNN's Rasters around the
    // loss), whatever their op type; two tensors match when their chains end alike.
    const auto chain = [&w, n](TensorId t) {
        std::vector<TensorId> c{t};
        for (int p = w.tensors[t].producer; p != kNoOp && w.ops[p].inputs.size() == 1 && static_cast<int>(c.size()) <= n;
             p = w.tensors[c.back()].producer)
            c.push_back(w.ops[p].inputs.front());
        return c;
    };
    const std::vector<TensorId> prediction_chain = chain(prediction);
    std::vector<std::vector<TensorId>> junction_chains;
    for (TensorId t : w.ops[junction].outputs) junction_chains.push_back(chain(t));
    int reader = -1, copies = 0;
    for (int i = junction + 1; i < n && reader < 0; ++i) {
        int prediction_copies = -1, junction_copies = -1;
        for (TensorId t : w.ops[i].inputs) {
            const std::vector<TensorId> c = chain(t);
            if (prediction_copies < 0) prediction_copies = copies_between(c, prediction_chain);
            for (const auto& out : junction_chains)
                if (junction_copies < 0) junction_copies = copies_between(c, out);
        }
        if (prediction_copies >= 0 && junction_copies >= 0) {
            reader = i;
            copies = prediction_copies + junction_copies;
        }
    }
    const bool read_again = reader >= 0;
    const int fe = read_again ? junction + 1 : junction;
    std::string why = "it is the gradient seed, so the backward pass starts there";
    if (read_again && copies == 0) why = "it computes the loss, so the forward pass ends after it";
    if (read_again && copies > 0)
        why = "it computes the loss (op " + std::to_string(reader) + " reads the prediction and its output through " +
              std::to_string(copies) + " single-input copies), so the forward pass ends after it";
    return {fe, "inferred: loss junction at op " + std::to_string(junction) + " (" + w.ops[junction].name +
                    ") reads the label and the prediction (tensor " + w.tensors[prediction].name + "); " + why,
            copies};
}

}  // namespace memsim
