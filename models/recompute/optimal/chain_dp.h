// The program on a chain, solved by dynamic programming (docs/optimal.md, "Chains"):
// a Rotor-style recursion (Herrmann et al. 2019) over segments [s, t) of the forward
// values and the bytes of checkpoints held around them, exact in bytes (memory in units
// of the greatest common divisor of the forward values' sizes).
//
// A chain: forward op i creates one value x_i and reads only x_{i-1} (and constants that
// stay); each backward op reads at most one forward value (the first one read, after the
// forward pass, may read the last few together), each forward value up to the highest
// one read is read by exactly one backward op, in reverse order. The recursion does not
// recompute backward ops (in a chain that would mean recomputing the whole backward pass
// before it).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/recompute/optimal/schedule.h"

namespace memsim::optimal {

struct ChainGroup {
    int lo = 0, hi = 0;  // the forward values read together (positions), inclusive
    int stage = 0;       // the backward op that reads them
};

struct Chain {
    int length = 0;                  // forward ops 0..length-1; op i creates x_i
    std::vector<int> value;          // x_i's value index
    std::vector<ChainGroup> groups;  // in stage order (highest positions first)
    std::vector<int> group_of;       // per position up to the highest read: its group
    [[nodiscard]] int highest_read() const { return groups.empty() ? -1 : groups.front().hi; }
};

// The chain structure of a workload, or none when it is not one.
std::optional<Chain> chain_of(const RematProblem& p);

struct ChainSolution {
    std::optional<Schedule> schedule;  // none: no plan fits
    double recompute_ms = 0.0;
    double seconds = 0.0;  // CPU time
    std::size_t cells = 0, work = 0;
};

// None when the recursion would take more than `max_work` cell x split evaluations.
std::optional<ChainSolution> solve_chain(const RematProblem& p, const Chain& c, std::size_t max_work);

// The number of cell x split evaluations the recursion would take (for the limit and the benchmark).
std::size_t chain_work(const RematProblem& p, const Chain& c);

}  // namespace memsim::optimal
