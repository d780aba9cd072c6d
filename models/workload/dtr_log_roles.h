// The roles of a DTR log's tensors (tensor_role.h): the log's own ROLE and ROLES keys
// where it has them, inferred from the optimizer step for the rest (docs/workloads.md,
// "Roles"); Workload::role_rule says which rule decided.
#pragma once

#include <vector>

#include "models/workload/workload.h"

namespace memsim {

// What the loader saw of in-place writes (a Workload does not keep it).
struct DtrWrites {
    std::vector<std::vector<TensorId>> by_op;  // per op: the storages it writes in place (MUTATE, "add_")
    std::vector<TensorId> previous_version;    // per tensor: the storage a MUTATE version replaces, else -1
};

// Sets every tensor's role not `recorded` (per tensor, non-zero: the log gave it) and
// w.role_rule.
void assign_dtr_roles(Workload& w, const std::vector<char>& recorded, const DtrWrites& writes);

}  // namespace memsim
