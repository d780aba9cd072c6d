#include "models/workload/mnn_roles.h"

namespace memsim {

void assign_mnn_roles(Workload& w) {
    std::vector<char> released(w.tensors.size(), 0);
    for (const Op& op : w.ops)
        for (TensorId t : op.release) released[static_cast<std::size_t>(t)] = 1;
    for (std::size_t t = 0; t < w.tensors.size(); ++t) {
        Tensor& x = w.tensors[t];
        if (x.scratch) x.role = TensorRole::other;
        else if (!released[t]) x.role = TensorRole::parameter;
        else if (x.producer != kNoOp && x.producer < w.forward_end) x.role = TensorRole::activation;
        else x.role = TensorRole::other;
    }
    w.role_rule = "mnn profile: parameters = tensors no operator releases (the weights the update writes, alive at "
                  "the iteration's end); activations = other outputs of forward operators; the rest 'other'";
}

}  // namespace memsim
