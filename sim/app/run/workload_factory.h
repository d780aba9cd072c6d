// Builds the Workload a scenario names: an MNN profile folder, a DTR log, or a
// built-in synthetic model.
#pragma once

#include "models/workload/workload.h"
#include "sim/scenario/scenario.h"

namespace memsim {

Workload load_workload(const Scenario& scenario);

}  // namespace memsim
