// Loader of the MNN profile format (docs/mnn_format.md): a folder holding
// M.io_info.json, M.B.tensor_size.json, M.B.resize_info.json, M.B.cost_info.json
// and optionally M.B.redundent_parent.json. Every file is validated; errors are
// InputError naming the file, the entry and the bad value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

// Where operator costs come from.
//  - measured: M.B.cost_info.json (an error when the batch has none);
//  - linear_fit: per operator, a least-squares line cost(B) = a + b*B through every batch
//    with a cost file, evaluated at B and clipped at 0 (answers "what if the batch were
//    larger" for batches whose sizes were profiled but whose times were not).
enum class CostModel { Measured, LinearFit };

// Model name = the prefix of the single *.io_info.json file in `dir`.
Workload load_mnn_profile(const std::string& dir, int batch, std::optional<int> forward_end = std::nullopt,
                          CostModel costs = CostModel::Measured);

// Batches of the profile in `dir` that have a `kind` file ("tensor_size", "cost_info"), sorted.
std::vector<int> profile_batches(const std::string& dir, const std::string& kind);

}  // namespace memsim
