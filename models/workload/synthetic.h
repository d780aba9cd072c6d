// Built-in synthetic workloads with known answers.
//  - uniform_linear (param n >= 1): the DTR paper's network (docs/recompute.md; "A
//    synthetic check"): every op costs 1 ms and outputs one 1-byte tensor. Forward
//    f0..f_{n-1} (f_i reads f_{i-1}); backward b_{n-1} (no inputs), then b_k reads
//    f_{k-1} (k > 0) and b_{k+1}. Releases: f_{n-1} after op f_{n-1}; after op b_{k+1}
//    first b_{k+2} (its consumer has run) then f_k (before b_k runs). b_0 stays alive.
#pragma once

#include <map>
#include <string>

#include "models/workload/workload.h"

namespace memsim {

// Throws InputError for an unknown kind, an unknown parameter or a bad value.
Workload make_synthetic(const std::string& kind, const std::map<std::string, double>& params);

Workload make_uniform_linear(int n);

}  // namespace memsim
