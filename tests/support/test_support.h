// Small hand-made workloads for tests.
#pragma once

#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim::test {

// Op i produces tensor i; scratch buffers get ids after all outputs.
class WorkloadBuilder {
public:
    WorkloadBuilder& op(double cost_ms, std::uint64_t bytes, std::vector<TensorId> inputs, std::vector<TensorId> release,
                        std::vector<std::uint64_t> scratch = {}) {
        specs_.push_back({cost_ms, bytes, std::move(inputs), std::move(release), std::move(scratch)});
        return *this;
    }

    // An op that creates a view of tensor `base` (it reads base; its output takes no
    // memory and shares base's storage, like a DTR log's ALIAS result).
    WorkloadBuilder& view(double cost_ms, TensorId base, std::vector<TensorId> release = {}) {
        specs_.push_back({cost_ms, 0, {base}, std::move(release), {}, base});
        return *this;
    }

    Workload build(int forward_end) const {
        Workload w;
        w.name = "hand";
        w.batch = 1;
        w.source = "test";
        const int n = static_cast<int>(specs_.size());
        for (int i = 0; i < n; ++i) {
            Tensor t;
            t.name = std::to_string(i);
            t.bytes = specs_[i].bytes;
            t.producer = i;
            t.alias_of = specs_[i].alias_of;
            w.tensors.push_back(t);
        }
        for (int i = 0; i < n; ++i) {
            Op op;
            op.name = "op" + std::to_string(i);
            op.cost_ms = specs_[i].cost_ms;
            op.inputs = specs_[i].inputs;
            op.outputs = {i};
            op.release = specs_[i].release;
            std::vector<TensorId> ids;
            for (std::size_t k = 0; k < specs_[i].scratch.size(); ++k) {
                Tensor s;
                s.name = std::to_string(i) + ":" + std::to_string(k);
                s.bytes = specs_[i].scratch[k];
                s.producer = i;
                s.scratch = true;
                ids.push_back(static_cast<TensorId>(w.tensors.size()));
                w.tensors.push_back(s);
            }
            for (TensorId id : ids) op.scratch.push_back({true, id});
            for (TensorId id : ids) op.scratch.push_back({false, id});
            w.ops.push_back(op);
        }
        w.forward_end = forward_end;
        w.forward_end_rule = "test";
        return w;
    }

private:
    struct Spec {
        double cost_ms;
        std::uint64_t bytes;
        std::vector<TensorId> inputs, release;
        std::vector<std::uint64_t> scratch;
        TensorId alias_of = -1;
    };
    std::vector<Spec> specs_;
};

// op0: t0 = 1000 B, 5 ms. op1: t1 = 10 B, 20 ms (t0 idle). Forward ends.
// op2: reads t0 and t1, 5 ms, releases both; t2 = 10 B. (The swap, tier and node-usage
// tests' shared trace: one place, so that their hand-worked timelines agree.)
inline Workload overlap_trace() {
    return WorkloadBuilder().op(5, 1000, {}, {}).op(20, 10, {}, {}).op(5, 10, {0, 1}, {0, 1}).build(2);
}

}  // namespace memsim::test
