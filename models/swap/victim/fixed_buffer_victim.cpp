// fixed_buffer (the reference's DXR rule): tensors with no further forward use first,
// largest first; then the others, largest first (ties: lower tensor id).
#include <algorithm>

#include "models/swap/victim/victim_rule.h"

namespace memsim {

namespace {

class FixedBufferVictim final : public VictimRule {
public:
    TensorId choose(const VictimView& view, const std::vector<TensorId>& candidates, int /*op*/) override {
        const Workload& w = view.workload();
        auto no_forward_use = [&](TensorId t) {
            const std::optional<int> next = view.next_use_op(t);
            return !next || *next >= w.forward_end;
        };
        return *std::max_element(candidates.begin(), candidates.end(), [&](TensorId a, TensorId b) {
            const bool fa = no_forward_use(a), fb = no_forward_use(b);
            if (fa != fb) return !fa;
            if (w.tensors[a].bytes != w.tensors[b].bytes) return w.tensors[a].bytes < w.tensors[b].bytes;
            return a > b;
        });
    }
};

}  // namespace

std::unique_ptr<VictimRule> make_fixed_buffer_victim() { return std::make_unique<FixedBufferVictim>(); }

}  // namespace memsim
