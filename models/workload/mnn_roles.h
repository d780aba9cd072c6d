// The roles of an MNN profile's tensors (tensor_role.h; docs/workloads.md, "Roles"). A
// profile names no weights: every tensor is an operator's output. The weights the
// iteration's updates write are the tensors no operator releases, alive at its end
// (MobilenetV2: 158 tensors, 14,024,612 bytes, 4 bytes for each of its 3.5 M
// parameters); they are the parameters.
#pragma once

#include "models/workload/workload.h"

namespace memsim {

// Sets every tensor's role and w.role_rule, from the release lists and w.forward_end.
void assign_mnn_roles(Workload& w);

}  // namespace memsim
