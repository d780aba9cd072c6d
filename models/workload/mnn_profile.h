// Loader of the MNN profile format (SPEC section 1): a folder holding
// M.io_info.json, M.B.tensor_size.json, M.B.resize_info.json, M.B.cost_info.json
// and optionally M.B.redundent_parent.json. Every file is validated; errors are
// InputError naming the file, the entry and the bad value.
#pragma once

#include <optional>
#include <string>

#include "models/workload/workload.h"

namespace memsim {

// Model name = the prefix of the single *.io_info.json file in `dir`.
Workload load_mnn_profile(const std::string& dir, int batch, std::optional<int> forward_end = std::nullopt);

}  // namespace memsim
