// policy.data_parallel (docs/parallel.md): the platform's GPUs as data-parallel ranks of
// one step; read beside the rest of the policy section (sections.cpp).
#pragma once

#include <optional>

#include "models/parallel/data_parallel.h"
#include "sim/scenario/parser.h"

namespace memsim {

// Absent: none (the GPUs are independent replicas, as before).
std::optional<DataParallelSpec> parse_data_parallel(const YAML::Node& n, const Parser& p);

}  // namespace memsim
