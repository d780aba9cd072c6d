// The smallest memory an operator can run in: its inputs, its outputs and its scratch,
// resident together while it runs (an alias counts as the storage it shares). No
// policy can run an operator in less, so a budget below the largest one is a
// mistake the run pipeline reports before anything runs (docs/budgets.md).
#pragma once

#include <cstdint>

#include "models/workload/workload.h"

namespace memsim {

struct OpWorkingSet {
    int op = -1;  // -1: the workload has no operator
    std::uint64_t bytes = 0;
};

std::uint64_t op_working_set_bytes(const Workload& w, int op);
// The first operator with the largest working set.
OpWorkingSet largest_working_set(const Workload& w);

}  // namespace memsim
