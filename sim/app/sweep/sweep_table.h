// The answer `memsim sweep` prints (and `memsim merge`): one row per point, like
// `memsim compare`'s table, so that the result needs no CSV viewer: the point, its swept
// values (labelled as the plots label them, sim/report/charts/value_labels.h), status, iteration
// time, overhead, peak memory and stall time. A point that did not finish (any status but ok)
// has no time and no overhead ("-"); results.csv holds every field and the messages.
#pragma once

#include <string>
#include <vector>

#include "sim/report/point_results.h"
#include "sim/scenario/sweep_plan.h"

namespace memsim {

std::string sweep_table(const SweepPlan& plan, const std::vector<PointResult>& results);

}  // namespace memsim
