// The collective algorithms, one row each. Ring (Patarasuk and Yuan's bandwidth-optimal
// all-reduce, NCCL's default on one node): the buffer is cut in N chunks and every rank
// sends one chunk to the next rank at each step: a reduce-scatter or an all-gather takes
// N - 1 steps, an all-reduce is the two in a row, 2 (N - 1) steps of S / N bytes.
#include "models/parallel/collective_algorithms.h"

#include <array>

namespace memsim {

namespace {

std::vector<CollectiveStep> ring_steps(CollectiveKind kind, int ranks, double bytes) {
    if (ranks < 2) return {};
    const int count = (kind == CollectiveKind::all_reduce ? 2 : 1) * (ranks - 1);
    CollectiveStep step;
    for (int r = 0; r < ranks; ++r) step.push_back({r, (r + 1) % ranks, bytes / ranks});
    return std::vector<CollectiveStep>(static_cast<std::size_t>(count), step);
}

}  // namespace

std::span<const CollectiveAlgorithm> collective_algorithms() {
    static const std::array rows{
        CollectiveAlgorithm{"ring",
                            "each rank sends S/N to the next: 2(N-1) steps for an all-reduce, N-1 for a "
                            "reduce-scatter or an all-gather",
                            ring_steps},
    };
    return rows;
}

const CollectiveAlgorithm* collective_algorithm(std::string_view name) {
    for (const CollectiveAlgorithm& a : collective_algorithms())
        if (a.name == name) return &a;
    return nullptr;
}

double bytes_sent(const std::vector<CollectiveStep>& steps, int rank) {
    double sent = 0;
    for (const CollectiveStep& step : steps)
        for (const CollectiveFlow& f : step)
            if (f.from == rank) sent += f.bytes;
    return sent;
}

}  // namespace memsim
