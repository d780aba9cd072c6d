// How a collective moves its bytes between the ranks (policy.data_parallel.algorithm): a
// row gives the steps of a collective of `bytes` on `ranks` GPUs, each step a set of
// point-to-point flows that run at once; a step starts when the previous one ended on
// every rank (a ring's step needs the chunk the previous one delivered). The engine runs
// each flow as a SimGrid communication on the GPU-to-GPU route, so the platform shares
// the links between a step's flows, swap traffic and other collectives.
#pragma once

#include <span>
#include <vector>

#include "models/parallel/data_parallel.h"

namespace memsim {

struct CollectiveFlow {
    int from = 0, to = 0;
    double bytes = 0;
};
using CollectiveStep = std::vector<CollectiveFlow>;

struct CollectiveAlgorithm {
    const char* name = "";
    const char* summary = "";
    std::vector<CollectiveStep> (*steps)(CollectiveKind kind, int ranks, double bytes) = nullptr;
};
std::span<const CollectiveAlgorithm> collective_algorithms();
const CollectiveAlgorithm* collective_algorithm(std::string_view name);  // nullptr when none has that name

// The bytes rank `rank` sends in a collective (every rank sends as much in the rows here).
double bytes_sent(const std::vector<CollectiveStep>& steps, int rank);

}  // namespace memsim
