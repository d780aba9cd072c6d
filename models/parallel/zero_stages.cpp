// The ZeRO stages (Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
// Trillion Parameter Models", SC'20, section 5): one row each, policy.data_parallel.zero.
#include <array>

#include "models/parallel/data_parallel.h"

namespace memsim {

std::span<const ZeroStage> zero_stages() {
    static const std::array rows{
        ZeroStage{0, "DDP: every rank holds all parameters, gradients and optimizer state; gradients all-reduced", false, false,
                  false, CollectiveKind::all_reduce, false},
        ZeroStage{1, "optimizer state sharded: each rank updates 1/N of the parameters, which are then all-gathered", true, false,
                  false, CollectiveKind::all_reduce, true},
        ZeroStage{2, "gradients sharded too: reduce-scattered, each rank keeps 1/N", true, true, false,
                  CollectiveKind::reduce_scatter, true},
        ZeroStage{3, "parameters sharded too: all-gathered before each use, freed after", true, true, true,
                  CollectiveKind::reduce_scatter, false},
    };
    return rows;
}

const ZeroStage* zero_stage(int zero) {
    for (const ZeroStage& s : zero_stages())
        if (s.stage == zero) return &s;
    return nullptr;
}

}  // namespace memsim
