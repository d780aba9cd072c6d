// The usage-records file of `memsim plan --records`: {"records": [{"size": N, "first": F,
// "last": L}, ...]}, checked field by field (sizes whose total passes 2^53, records out of
// order of first use and op indices past the int range are errors naming file and field).
// Sparse op indices are renumbered so that planning memory follows the record count.
#pragma once

#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim::cli {

std::vector<UsageRecord> read_records(const std::string& file);

}  // namespace memsim::cli
