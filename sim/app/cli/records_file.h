// The usage-records file of `memsim plan --records`: {"records": [{"size": N, "first": F,
// "last": L}, ...]}, checked field by field (sizes whose total passes 2^53, records out of
// order of first use and op indices past the int range are errors naming file and field).
// Op indices are kept as written: the planners' memory follows the record count
// (models/plan/plan_types.h, live_stretches).
#pragma once

#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim::cli {

std::vector<UsageRecord> read_records(const std::string& file);

}  // namespace memsim::cli
