// The DTR paper's uniform linear table (the shared dtr-logs README quotes it): recomputed
// operators for a chain of n unit tensors under a budget of `budget` tensors, per
// heuristic. Numbers, not data files; both the reference runtime's test and the engine's
// `policy.semantics: dtr` test read them from here, so the table is written once.
#pragma once

#include <cstdint>

namespace memsim::test {

struct UniformLinearRow {
    int n;
    std::uint64_t budget;
    int dtr, dtr_eq, dtr_local, msps, lru, size;
};

inline constexpr UniformLinearRow kUniformLinearTable[] = {
    {16, 8, 8, 8, 11, 9, 11, 44},          {16, 4, 57, 57, 67, 29, 67, 90},
    {64, 16, 49, 49, 161, 60, 161, 1224},  {64, 8, 102, 102, 598, 104, 598, 1652},
    {64, 32, 32, 32, 35, 33, 35, 560},     {100, 10, 159, 159, 1255, 162, 1255, 4185},
    {256, 16, 400, 400, 6984, 428, 6984, 29160},
};

}  // namespace memsim::test
