// Built-in synthetic workloads with known answers, one row per kind in a table
// (synthetic_kinds() lists them; all but gpt take the single parameter n >= 1):
//  - uniform_linear: the DTR paper's network (docs/recompute.md, "A
//    synthetic check"): every op costs 1 ms and outputs one 1-byte tensor. Forward f0..f_{n-1}
//    (f_i reads f_{i-1}); backward b_{n-1} (no inputs), then b_k reads f_{k-1} (k > 0)
//    and b_{k+1}. Releases: f_{n-1} after op f_{n-1}; after op b_{k+1} first b_{k+2}
//    (its consumer has run) then f_k (before b_k runs). b_0 stays alive.
//  - chain: n forward layers in a line, then their backward pass (2n ops); layer i
//    outputs (1 + i mod 4) x 64 KiB, so the pool allocator splits and merges.
//  - branching: n forward operators in residual blocks (an input op, then per block
//    conv a = f(x), conv b = f(a), add y = x + b: the block input feeds two ops), then
//    the backward pass (2n ops).
// chain and branching: every op costs 1 ms; backward op i reads the gradients of
// forward op i's outputs and its inputs, and writes one gradient per input; every
// tensor is released after its last reader. They scale to millions of operators (the
// scaling benchmark, scripts/bench_scaling.sh).
//  - gpt: a GPT training step of any size (synthetic_gpt.h), from numbers (layers,
//    hidden, heads, seq, batch, vocab) and words (precision, dropout, checkpointing).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

// A generator's parameters as a scenario writes them: numbers, and words for the keys
// whose values are names (gpt's precision, dropout, checkpointing).
struct SyntheticParams {
    std::map<std::string, double> numbers;
    std::map<std::string, std::string> words;
};

// Throws InputError for an unknown kind, an unknown parameter or a bad value.
Workload make_synthetic(const std::string& kind, const SyntheticParams& params);
inline Workload make_synthetic(const std::string& kind, const std::map<std::string, double>& numbers) {
    return make_synthetic(kind, SyntheticParams{numbers, {}});
}
// The kinds make_synthetic knows, in table order.
std::vector<std::string> synthetic_kinds();

Workload make_uniform_linear(int n);
Workload make_chain(int n);
Workload make_branching(int n);

}  // namespace memsim
