// workload: {synthetic: gpt, ...}: one Megatron-style GPT training step (docs/workloads.md,
// "Synthetic GPT"), every tensor with its role and every operator with its FLOPs, bytes
// and dtype (op_costs.h), so the device model can time it (docs/gpu_model.md).
//
// Forward: embedding (word lookup tied to the output layer, plus learned positions),
// dropout; per layer: layer norm, QKV, scores (QKᵀ), softmax, attention dropout,
// attention over V, projection, dropout, residual, layer norm, 4h MLP with GELU,
// dropout, residual; final layer norm, logits (fp32), cross-entropy. Backward in
// reverse, then one Adam step per parameter group. A layer saves for its backward
// exactly the tensors Korthikanti et al. (MLSys 2023) count, s·b·h·(34 + 5·a·s/h) bytes
// in mixed precision with dropout (per-token statistics such as the layer norms' mean
// and variance left out, as the paper leaves them out); checkpointing `selective` re-runs
// the attention core (scores, softmax, dropout, attention over V) in the backward and
// `full` the whole layer from its saved input, both as ops with Op::recomputes set.
//
// Op names are "<class>[<where>]" (matmul[L3.qkv], softmax[L3]): `memsim info` groups
// operators by the class before the bracket.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "models/workload/workload.h"

namespace memsim {

enum class GptPrecision : std::uint8_t { fp32, mixed };
enum class GptCheckpointing : std::uint8_t { none, selective, full };

struct GptShape {
    int layers = 0;  // L
    int hidden = 0;  // h
    int heads = 0;   // a (divides h)
    int seq = 0;     // s
    int batch = 0;   // b
    int vocab = 0;   // V
    GptPrecision precision = GptPrecision::mixed;  // mixed: bf16 compute, fp32 master weights and Adam state
    bool dropout = true;
    GptCheckpointing checkpointing = GptCheckpointing::none;
};

// The scenario's keys (numbers: layers, hidden, heads, seq, batch, vocab, all required;
// words: precision fp32|mixed, dropout true|false, checkpointing none|selective|full),
// checked: throws InputError naming the key and the value.
GptShape gpt_shape(const std::map<std::string, double>& numbers, const std::map<std::string, std::string>& words);

Workload make_gpt(const GptShape& shape);

// The paper's counts for a shape, as the generator must meet them (tests assert them;
// docs/workloads.md prints them).
std::uint64_t gpt_parameter_count(const GptShape& g);            // L(12h²+13h) + Vh + sh + 2h
std::uint64_t gpt_layer_saved_bytes(const GptShape& g);          // one layer's saved activations
double gpt_model_matmul_flops(const GptShape& g);                // 72·b·s·L·h²·(1 + s/6h + V/12Lh)

}  // namespace memsim
