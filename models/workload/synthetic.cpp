#include "models/workload/synthetic.h"

#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/policy_table.h"
#include "models/workload/input_error.h"
#include "models/workload/synthetic_gpt.h"
#include "models/workload/workload_limits.h"

namespace memsim {

namespace {

void check_n(const char* kind, int n) {
    if (n < 1) throw InputError(fmt::format("synthetic {}: n must be >= 1, got {}", kind, n));
}

Workload named(const char* kind, int n) {
    Workload w;
    w.name = fmt::format("{}_{}", kind, n);
    w.source = fmt::format("synthetic:{}:n={}", kind, n);
    w.batch = 1;
    return w;
}

// A forward pass as ops reading earlier ops' outputs: op i writes tensor i.
struct ForwardOp {
    std::uint64_t bytes = 0;
    std::vector<TensorId> inputs;
};

// The forward pass, then its backward pass in reverse: backward op i reads the
// gradients of forward op i's output and forward op i's inputs, and writes one gradient
// per input (a tensor with several readers gets several gradients; the backward op of
// its producer reads them all). Every tensor is released after its last reader.
Workload training_iteration(Workload w, const std::vector<ForwardOp>& forward) {
    const int n = static_cast<int>(forward.size());
    w.ops.reserve(2 * forward.size());
    w.tensors.reserve(3 * forward.size());
    auto add_tensor = [&](std::string name, std::uint64_t bytes, int producer) {
        w.tensors.push_back(Tensor{std::move(name), bytes, producer, false, false, -1});
        return static_cast<TensorId>(w.tensors.size() - 1);
    };
    for (int i = 0; i < n; ++i) {
        add_tensor(fmt::format("x{}", i), forward[i].bytes, i);
        w.ops.push_back(Op{fmt::format("f{}", i), 1.0, forward[i].inputs, {i}, {}, {}, {}});
    }
    w.forward_end = n;
    w.forward_end_rule = "synthetic: after the last forward op";
    std::vector<std::vector<TensorId>> grads(n);  // gradient contributions per forward tensor
    for (int i = n - 1; i >= 0; --i) {
        const int op = static_cast<int>(w.ops.size());
        std::vector<TensorId> inputs = grads[i];
        if (inputs.empty()) inputs.push_back(i);  // the last output is the loss: its own seed
        for (TensorId in : forward[i].inputs) inputs.push_back(in);
        std::vector<TensorId> outputs;
        for (TensorId in : forward[i].inputs) {
            const TensorId g = add_tensor(fmt::format("g{}_{}", in, i), forward[in].bytes, op);
            grads[in].push_back(g);
            outputs.push_back(g);
        }
        w.ops.push_back(Op{fmt::format("b{}", i), 1.0, std::move(inputs), std::move(outputs), {}, {}, {}});
    }
    // Release after the last reader (or after the producer when nobody reads it).
    std::vector<int> last(w.tensors.size(), -1);
    for (int op = 0; op < static_cast<int>(w.ops.size()); ++op) {
        for (TensorId t : w.ops[op].outputs) last[t] = std::max(last[t], op);
        for (TensorId t : w.ops[op].inputs) last[t] = op;
    }
    for (TensorId t = 0; t < static_cast<TensorId>(last.size()); ++t) w.ops[last[t]].release.push_back(t);
    return w;
}

using SyntheticRow = PolicyRow<Workload (*)(const std::string&, const SyntheticParams&)>;

// The kinds sized by n alone: n checked, about 2n operators and 2n tensors refused up
// front if they cannot fit.
template <Workload (*Make)(int)>
Workload by_n(const std::string& kind, const SyntheticParams& params) {
    for (const auto& [key, value] : params.numbers)
        if (key != "n") throw InputError(fmt::format("synthetic {}: unknown parameter '{}' (known: n)", kind, key));
    if (!params.words.empty())
        throw InputError(fmt::format("synthetic {}: unknown parameter '{}' (known: n)", kind, params.words.begin()->first));
    const auto it = params.numbers.find("n");
    if (it == params.numbers.end()) throw InputError(fmt::format("synthetic {}: parameter 'n' is required", kind));
    const double n = it->second;
    if (!(n >= 1) || n != std::floor(n) || n > 1e7)
        throw InputError(fmt::format("synthetic {}: n must be a whole number in [1, 1e7], got {}", kind, n));
    check_workload_fits_memory(2 * static_cast<std::size_t>(n), 2 * static_cast<std::size_t>(n), "synthetic " + kind);
    return Make(static_cast<int>(n));
}

Workload gpt(const std::string&, const SyntheticParams& params) { return make_gpt(gpt_shape(params.numbers, params.words)); }

const SyntheticRow kSynthetic[] = {
    {"uniform_linear", "the DTR paper's linear network: 2n ops of 1 ms, 1-byte tensors", by_n<make_uniform_linear>},
    {"chain", "n layers in a line and their backward pass, 64-256 KiB tensors", by_n<make_chain>},
    {"branching", "n operators in residual blocks (a tensor read by two ops) and their backward pass", by_n<make_branching>},
    {"gpt", "a Megatron-style GPT training step of any size (layers, hidden, heads, seq, batch, vocab, ...)", gpt},
};

}  // namespace

Workload make_uniform_linear(int n) {
    check_n("uniform_linear", n);
    Workload w = named("uniform_linear", n);
    w.ops.reserve(2 * static_cast<std::size_t>(n));
    w.tensors.reserve(2 * static_cast<std::size_t>(n));
    // Built in place: a temporary Op moved in was a fifth of this function's time.
    auto add_op = [&](std::string name, std::vector<TensorId> inputs) {
        const int op = static_cast<int>(w.ops.size());
        const auto t = static_cast<TensorId>(w.tensors.size());
        w.tensors.push_back(Tensor{name, 1, op, false, false, -1});
        Op& o = w.ops.emplace_back();
        o.name = std::move(name);
        o.cost_ms = 1.0;
        o.inputs = std::move(inputs);
        o.outputs.push_back(t);
        return t;
    };
    // Names written by std::to_chars into one short string: fmt::format was a tenth of the
    // per-operator cost of a run of this workload (bench/per_activity.sh), and
    // "f" + std::to_string(i) built two strings per operator.
    auto op_name = [](char prefix, int i) {
        std::array<char, 16> text{prefix};
        const auto end = std::to_chars(text.data() + 1, text.data() + text.size(), i).ptr;
        return std::string(text.data(), end);
    };
    std::vector<TensorId> f(n), b(n);
    for (int i = 0; i < n; ++i)
        f[i] = add_op(op_name('f', i), i == 0 ? std::vector<TensorId>{} : std::vector<TensorId>{f[i - 1]});
    w.forward_end = n;
    w.forward_end_rule = "synthetic: after f_{n-1}";
    w.ops.back().release.push_back(f[n - 1]);
    b[n - 1] = add_op(op_name('b', n - 1), {});
    for (int k = n - 2; k >= 0; --k) {
        // Between b_{k+1} and b_k: release f_k; then after b_k runs, release b_{k+1}.
        w.ops.back().release.push_back(f[k]);
        std::vector<TensorId> inputs;
        inputs.reserve(2);
        if (k > 0) inputs.push_back(f[k - 1]);
        inputs.push_back(b[k + 1]);
        b[k] = add_op(op_name('b', k), std::move(inputs));
        w.ops.back().release.push_back(b[k + 1]);
    }
    return w;
}

Workload make_chain(int n) {
    check_n("chain", n);
    std::vector<ForwardOp> forward(n);
    for (int i = 0; i < n; ++i) {
        forward[i].bytes = static_cast<std::uint64_t>(1 + i % 4) * 64 * 1024;
        if (i > 0) forward[i].inputs = {i - 1};
    }
    return training_iteration(named("chain", n), forward);
}

Workload make_branching(int n) {
    check_n("branching", n);
    std::vector<ForwardOp> forward(n);
    forward[0].bytes = 256 * 1024;  // the input
    TensorId block_in = 0;
    for (int i = 1; i < n; ++i) {
        switch ((i - 1) % 3) {
            case 0: forward[i] = {128 * 1024, {block_in}}; break;      // a = conv(x)
            case 1: forward[i] = {64 * 1024, {i - 1}}; break;          // b = conv(a)
            default:                                                   // y = x + b
                forward[i] = {256 * 1024, {block_in, i - 1}};
                block_in = i;
        }
    }
    return training_iteration(named("branching", n), forward);
}

std::vector<std::string> synthetic_kinds() { return row_names(kSynthetic); }

Workload make_synthetic(const std::string& kind, const SyntheticParams& params) {
    const SyntheticRow* row = find_row(kSynthetic, kind);
    if (!row)
        throw InputError(fmt::format("synthetic workload: unknown kind '{}' (known: {})", kind, fmt::join(synthetic_kinds(), ", ")));
    return row->make(kind, params);
}

}  // namespace memsim
