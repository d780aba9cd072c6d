#include "models/workload/synthetic_gpt.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "models/checked_math.h"
#include "models/workload/input_error.h"
#include "models/workload/op_costs.h"
#include "models/workload/workload_limits.h"

namespace memsim {

namespace {

using u64 = std::uint64_t;

// Builds ops in order; each output's producer is the op that lists it.
struct Builder {
    Workload w;
    Dtype compute = Dtype::bf16;

    TensorId tensor(std::string name, u64 bytes, TensorRole role, bool constant = false) {
        w.tensors.push_back(Tensor{std::move(name), bytes, kNoOp, false, constant, -1, role});
        return static_cast<TensorId>(w.tensors.size() - 1);
    }
    int op(std::string name, std::vector<TensorId> inputs, std::vector<TensorId> outputs, OpCost cost,
           int recomputes = kNoOp, std::optional<Dtype> dtype = std::nullopt) {
        const int index = static_cast<int>(w.ops.size());
        for (TensorId t : outputs) w.tensors[t].producer = index;
        Op o;
        o.name = std::move(name);
        o.inputs = std::move(inputs);
        o.outputs = std::move(outputs);
        o.recomputes = recomputes;
        o.flops = cost.flops;
        o.bytes_moved = cost.bytes;
        o.dtype = dtype.value_or(compute);
        w.ops.push_back(std::move(o));
        return index;
    }
    // Every non-constant tensor is freed after its last reader (after its producer when
    // nobody reads it).
    void release_after_last_use() {
        std::vector<int> last(w.tensors.size(), -1);
        for (int i = 0; i < static_cast<int>(w.ops.size()); ++i) {
            for (TensorId t : w.ops[i].outputs) last[t] = std::max(last[t], i);
            for (TensorId t : w.ops[i].inputs) last[t] = i;
        }
        for (TensorId t = 0; t < static_cast<TensorId>(last.size()); ++t)
            if (!w.tensors[t].constant && last[t] >= 0) w.ops[last[t]].release.push_back(t);
    }
};

// A parameter group (a linear layer's weight and bias, a layer norm's gamma and beta):
// its weights, its optimizer state and the number of elements.
struct Param {
    TensorId weights = -1;
    std::vector<TensorId> state;  // fp32 master copy (mixed), Adam's m and v
    u64 elements = 0;
    std::string name;
};

// One layer's forward tensors (the originals, or the re-run's under checkpointing).
struct LayerTensors {
    TensorId a = -1, q = -1, k = -1, v = -1, scores = -1, probs = -1, attn_mask = -1, dropped = -1, ctx = -1;
    TensorId proj_mask = -1, r = -1, b = -1, h1 = -1, g = -1, mlp_mask = -1, y = -1;
};

struct Gpt {
    const GptShape& g;
    Builder& bld;
    double e, S, h, a, s, bsz, V;  // e: bytes an element (bf16 2, fp32 4); S: tokens (s·b); the rest as GptShape
    std::vector<Param> params;
    std::vector<std::array<int, 6>> layer_params;  // ln1, qkv, proj, ln2, fc1, fc2
    std::vector<LayerTensors> forward;              // per layer
    std::vector<std::vector<int>> forward_ops;      // per layer, in order (full checkpointing re-runs them)

    Gpt(const GptShape& shape, Builder& b)
        : g(shape), bld(b), e(shape.precision == GptPrecision::mixed ? 2 : 4), S(double(shape.seq) * shape.batch),
          h(shape.hidden), a(shape.heads), s(shape.seq), bsz(shape.batch), V(shape.vocab) {}

    u64 bytes(double elements, double elem) const { return static_cast<u64>(elements * elem); }
    TensorId act(const std::string& name, double elements, double elem = 0) {
        return bld.tensor(name, bytes(elements, elem > 0 ? elem : e), TensorRole::activation);
    }
    TensorId temp(const std::string& name, double elements, double elem = 0) {
        return bld.tensor(name, bytes(elements, elem > 0 ? elem : e), TensorRole::other);
    }

    int param(const std::string& name, u64 elements) {
        Param p{bld.tensor(name, bytes(double(elements), e), TensorRole::parameter, true), {}, elements, name};
        const std::vector<const char*> state = g.precision == GptPrecision::mixed ? std::vector<const char*>{"master", "adam_m", "adam_v"}
                                                                                  : std::vector<const char*>{"adam_m", "adam_v"};
        for (const char* what : state)
            p.state.push_back(bld.tensor(fmt::format("{}.{}", name, what), elements * 4, TensorRole::optimizer_state, true));
        params.push_back(std::move(p));
        return static_cast<int>(params.size() - 1);
    }
    TensorId w(int p) const { return params[p].weights; }

    OpCost dropout_cost(double n) const { return elementwise_cost(n, 2, 2 * e + 1); }

    // One layer's forward from x: the original, or under checkpointing its re-run in the
    // backward (each op recomputing its original): the attention core only (selective,
    // reading the saved q, k, v) or the whole layer (full, from the saved input).
    LayerTensors layer_forward(int i, TensorId x, bool rerun, bool attention_core_only) {
        const auto& lp = layer_params[i];
        const std::string tag = rerun ? fmt::format("L{}.re", i) : fmt::format("L{}", i);
        LayerTensors t = rerun ? forward[i] : LayerTensors{};
        std::vector<int> ops;
        // The attention core starts at a layer's third op (after ln1 and qkv).
        auto op = [&](std::string name, std::vector<TensorId> in, std::vector<TensorId> out, OpCost c) {
            const int original = rerun ? forward_ops[i][ops.size() + (attention_core_only ? 2 : 0)] : kNoOp;
            const int index = bld.op(std::move(name), std::move(in), std::move(out), c, original);
            ops.push_back(index);
            return index;
        };
        // Dropout of an S x h output (projection, MLP) when the step has it: its mask is saved
        // in `mask`, its output returned; the input itself otherwise.
        auto dropped = [&](TensorId in, const char* what, TensorId& mask) {
            if (!g.dropout) return in;
            mask = act(fmt::format("{}.{}_mask", tag, what), S * h, 1);
            const TensorId out = temp(fmt::format("{}.{}_dropped", tag, what), S * h);
            op(fmt::format("dropout[{}.{}]", tag, what), {in}, {mask, out}, dropout_cost(S * h));
            return out;
        };
        if (!attention_core_only) {
            t.a = act(tag + ".ln1", S * h);
            op(fmt::format("layer_norm[{}.ln1]", tag), {x, w(lp[0])}, {t.a}, layer_norm_cost(S, h, e));
            t.q = act(tag + ".q", S * h), t.k = act(tag + ".k", S * h), t.v = act(tag + ".v", S * h);
            op(fmt::format("matmul[{}.qkv]", tag), {t.a, w(lp[1])}, {t.q, t.k, t.v}, matmul_cost(S, h, 3 * h, e, e));
        }
        const double scores = a * bsz * s * s;
        t.scores = temp(tag + ".scores", scores);
        op(fmt::format("matmul[{}.scores]", tag), {t.q, t.k}, {t.scores}, {2 * bsz * s * s * h, 2 * e * S * h + e * scores});
        t.probs = act(tag + ".probs", scores);
        op(fmt::format("softmax[{}]", tag), {t.scores}, {t.probs}, softmax_cost(scores, e));
        t.dropped = t.probs;
        if (g.dropout) {
            t.attn_mask = act(tag + ".attn_mask", scores, 1), t.dropped = act(tag + ".attn_dropped", scores);
            op(fmt::format("dropout[{}.attn]", tag), {t.probs}, {t.attn_mask, t.dropped}, dropout_cost(scores));
        }
        t.ctx = act(tag + ".ctx", S * h);
        op(fmt::format("matmul[{}.attn_v]", tag), {t.dropped, t.v}, {t.ctx}, {2 * bsz * s * s * h, e * scores + 2 * e * S * h});
        if (attention_core_only) return t;
        TensorId o = temp(tag + ".proj", S * h);
        op(fmt::format("matmul[{}.proj]", tag), {t.ctx, w(lp[2])}, {o}, matmul_cost(S, h, h, e, e));
        o = dropped(o, "proj", t.proj_mask);
        t.r = act(tag + ".residual1", S * h);
        op(fmt::format("add[{}.residual1]", tag), {x, o}, {t.r}, elementwise_cost(S * h, 1, 3 * e));
        t.b = act(tag + ".ln2", S * h);
        op(fmt::format("layer_norm[{}.ln2]", tag), {t.r, w(lp[3])}, {t.b}, layer_norm_cost(S, h, e));
        t.h1 = act(tag + ".fc1", 4 * S * h);
        op(fmt::format("matmul[{}.fc1]", tag), {t.b, w(lp[4])}, {t.h1}, matmul_cost(S, h, 4 * h, e, e));
        t.g = act(tag + ".gelu", 4 * S * h);
        op(fmt::format("gelu[{}]", tag), {t.h1}, {t.g}, elementwise_cost(4 * S * h, 9, 2 * e));
        TensorId m = temp(tag + ".fc2", S * h);
        op(fmt::format("matmul[{}.fc2]", tag), {t.g, w(lp[5])}, {m}, matmul_cost(S, 4 * h, h, e, e));
        m = dropped(m, "mlp", t.mlp_mask);
        t.y = act(tag + ".out", S * h);
        op(fmt::format("add[{}.residual2]", tag), {t.r, m}, {t.y}, elementwise_cost(S * h, 1, 3 * e));
        if (!rerun) forward_ops.push_back(ops);
        return t;
    }

    // A parameter's gradient, written by a backward op.
    TensorId param_grad(int p) { return bld.tensor(params[p].name + ".grad", bytes(double(params[p].elements), e), TensorRole::gradient); }

    // One layer's backward from dy (the gradient of its output); returns dx and records
    // the parameter gradients.
    TensorId layer_backward(int i, TensorId x, TensorId dy, std::vector<TensorId>& grads) {
        const auto& lp = layer_params[i];
        LayerTensors t = forward[i];
        if (g.checkpointing == GptCheckpointing::full) t = layer_forward(i, x, true, false);
        const std::string tag = fmt::format("L{}", i);
        auto grad = [&](const std::string& name, double elements) { return temp(tag + ".d" + name, elements); };
        auto elementwise_backward = [&](double n, double forward_flops, double reads) { return elementwise_cost(n, 2 * forward_flops, reads); };
        TensorId dm = dy;
        if (g.dropout) {
            dm = grad("mlp_dropped", S * h);
            bld.op(fmt::format("dropout_backward[{}.mlp]", tag), {dy, t.mlp_mask}, {dm}, elementwise_backward(S * h, 2, 2 * e + 1));
        }
        const TensorId dg = grad("gelu", 4 * S * h);
        grads[lp[5]] = param_grad(lp[5]);
        bld.op(fmt::format("matmul_backward[{}.fc2]", tag), {dm, t.g, w(lp[5])}, {dg, grads[lp[5]]}, matmul_backward_cost(S, 4 * h, h, e, e));
        const TensorId dh1 = grad("fc1", 4 * S * h);
        bld.op(fmt::format("gelu_backward[{}]", tag), {dg, t.h1}, {dh1}, elementwise_backward(4 * S * h, 9, 3 * e));
        const TensorId db = grad("ln2", S * h);
        grads[lp[4]] = param_grad(lp[4]);
        bld.op(fmt::format("matmul_backward[{}.fc1]", tag), {dh1, t.b, w(lp[4])}, {db, grads[lp[4]]}, matmul_backward_cost(S, h, 4 * h, e, e));
        const TensorId dr_part = grad("residual1_ln", S * h);
        grads[lp[3]] = param_grad(lp[3]);
        bld.op(fmt::format("layer_norm_backward[{}.ln2]", tag), {db, t.r, w(lp[3])}, {dr_part, grads[lp[3]]},
               {2 * 8 * S * h, e * (3 * S * h + 4 * h)});
        const TensorId dr = grad("residual1", S * h);
        bld.op(fmt::format("add[{}.d_residual1]", tag), {dy, dr_part}, {dr}, elementwise_cost(S * h, 1, 3 * e));
        TensorId dproj = dr;
        if (g.dropout) {
            dproj = grad("proj_dropped", S * h);
            bld.op(fmt::format("dropout_backward[{}.proj]", tag), {dr, t.proj_mask}, {dproj}, elementwise_backward(S * h, 2, 2 * e + 1));
        }
        const TensorId dctx = grad("ctx", S * h);
        grads[lp[2]] = param_grad(lp[2]);
        bld.op(fmt::format("matmul_backward[{}.proj]", tag), {dproj, t.ctx, w(lp[2])}, {dctx, grads[lp[2]]}, matmul_backward_cost(S, h, h, e, e));
        if (g.checkpointing == GptCheckpointing::selective) t = layer_forward(i, x, true, true);
        const double scores = a * bsz * s * s;
        const TensorId ddropped = grad("attn_dropped", scores), dv = grad("v", S * h);
        bld.op(fmt::format("matmul_backward[{}.attn_v]", tag), {dctx, t.dropped, t.v}, {ddropped, dv},
               {4 * bsz * s * s * h, 2 * e * scores + 3 * e * S * h});
        TensorId dprobs = ddropped;
        if (g.dropout) {
            dprobs = grad("probs", scores);
            bld.op(fmt::format("dropout_backward[{}.attn]", tag), {ddropped, t.attn_mask}, {dprobs}, elementwise_backward(scores, 2, 2 * e + 1));
        }
        const TensorId dscores = grad("scores", scores);
        bld.op(fmt::format("softmax_backward[{}]", tag), {dprobs, t.probs}, {dscores}, elementwise_backward(scores, 5, 3 * e));
        const TensorId dq = grad("q", S * h), dk = grad("k", S * h);
        bld.op(fmt::format("matmul_backward[{}.scores]", tag), {dscores, t.q, t.k}, {dq, dk},
               {4 * bsz * s * s * h, e * scores + 4 * e * S * h});
        const TensorId da = grad("ln1", S * h);
        grads[lp[1]] = param_grad(lp[1]);
        bld.op(fmt::format("matmul_backward[{}.qkv]", tag), {dq, dk, dv, t.a, w(lp[1])}, {da, grads[lp[1]]},
               matmul_backward_cost(S, h, 3 * h, e, e));
        const TensorId dx_part = grad("x_ln", S * h);
        grads[lp[0]] = param_grad(lp[0]);
        bld.op(fmt::format("layer_norm_backward[{}.ln1]", tag), {da, x, w(lp[0])}, {dx_part, grads[lp[0]]},
               {2 * 8 * S * h, e * (3 * S * h + 4 * h)});
        const TensorId dx = grad("x", S * h);
        bld.op(fmt::format("add[{}.d_x]", tag), {dr, dx_part}, {dx}, elementwise_cost(S * h, 1, 3 * e));
        return dx;
    }
};

int whole(const std::map<std::string, double>& numbers, const char* key, double high) {
    const auto it = numbers.find(key);
    if (it == numbers.end())
        throw InputError(fmt::format("synthetic gpt: workload.{} is required (layers, hidden, heads, seq, batch, vocab)", key));
    const double v = it->second;
    if (!(v >= 1 && v <= high) || v != std::floor(v))
        throw InputError(fmt::format("synthetic gpt: workload.{}: {} is not a whole number in [1, {:g}]", key, v, high));
    return static_cast<int>(v);
}

}  // namespace

GptShape gpt_shape(const std::map<std::string, double>& numbers, const std::map<std::string, std::string>& words) {
    for (const auto& [key, value] : numbers)
        if (key != "layers" && key != "hidden" && key != "heads" && key != "seq" && key != "batch" && key != "vocab")
            throw InputError(fmt::format("synthetic gpt: unknown parameter '{}' (known: layers, hidden, heads, seq, batch, vocab, "
                                         "precision, dropout, checkpointing)", key));
    GptShape g;
    g.layers = whole(numbers, "layers", 1e4);
    g.hidden = whole(numbers, "hidden", 1e6);
    g.heads = whole(numbers, "heads", 1e5);
    g.seq = whole(numbers, "seq", 1e6);
    g.batch = whole(numbers, "batch", 1e6);
    g.vocab = whole(numbers, "vocab", 1e7);
    if (g.hidden % g.heads != 0)
        throw InputError(fmt::format("synthetic gpt: workload.heads: {} does not divide hidden {}", g.heads, g.hidden));
    if (auto it = words.find("precision"); it != words.end()) g.precision = it->second == "fp32" ? GptPrecision::fp32 : GptPrecision::mixed;
    if (auto it = words.find("dropout"); it != words.end()) g.dropout = it->second == "true";
    if (auto it = words.find("checkpointing"); it != words.end())
        g.checkpointing = it->second == "full" ? GptCheckpointing::full
                          : it->second == "selective" ? GptCheckpointing::selective : GptCheckpointing::none;
    // The largest tensors (attention scores, logits, the MLP's) must be countable in bytes.
    const double s = g.seq, b = g.batch, h = g.hidden;
    const double largest = std::max({4.0 * g.heads * b * s * s, 4.0 * s * b * g.vocab, 16.0 * s * b * h, 16.0 * h * h, 4.0 * g.vocab * h});
    if (largest > static_cast<double>(kMaxTotalBytes))
        throw InputError(fmt::format("synthetic gpt: a tensor of {:g} bytes (scores, logits or weights) is past the {} bytes a "
                                     "workload may hold (docs/limits.md)", largest, kMaxTotalBytes));
    check_workload_fits_memory(40 * static_cast<std::size_t>(g.layers), 60 * static_cast<std::size_t>(g.layers), "synthetic gpt");
    return g;
}

std::uint64_t gpt_parameter_count(const GptShape& g) {
    const u64 L = g.layers, h = g.hidden, V = g.vocab, s = g.seq;
    return L * (12 * h * h + 13 * h) + V * h + s * h + 2 * h;
}

std::uint64_t gpt_layer_saved_bytes(const GptShape& g) {
    const u64 sbh = u64(g.seq) * g.batch * g.hidden, as2b = u64(g.heads) * g.seq * g.seq * g.batch;
    const u64 e = g.precision == GptPrecision::mixed ? 2 : 4, mask = g.dropout ? 1 : 0;
    switch (g.checkpointing) {
        case GptCheckpointing::full: return e * sbh;
        case GptCheckpointing::selective: return 16 * e * sbh + 2 * mask * sbh;
        case GptCheckpointing::none: break;
    }
    // 16e·sbh (x, ln1, q, k, v, ctx, residual, ln2: e each; fc1, gelu: 4e each), two
    // masks of sbh, and per head: probabilities, mask, dropped probabilities.
    return 16 * e * sbh + 2 * mask * sbh + (e + mask * (1 + e)) * as2b;
}

double gpt_model_matmul_flops(const GptShape& g) {
    const double B = g.batch, s = g.seq, L = g.layers, h = g.hidden, V = g.vocab;
    return 72 * B * s * L * h * h + 12 * B * s * s * L * h + 6 * B * s * V * h;
}

Workload make_gpt(const GptShape& g) {
    Builder bld;
    bld.compute = g.precision == GptPrecision::mixed ? Dtype::bf16 : Dtype::fp32;
    bld.w.name = fmt::format("gpt_L{}_h{}_a{}_s{}_b{}_V{}", g.layers, g.hidden, g.heads, g.seq, g.batch, g.vocab);
    bld.w.source = fmt::format("synthetic:gpt:layers={},hidden={},heads={},seq={},batch={},vocab={},precision={},dropout={},checkpointing={}",
                               g.layers, g.hidden, g.heads, g.seq, g.batch, g.vocab,
                               g.precision == GptPrecision::mixed ? "mixed" : "fp32", g.dropout ? "true" : "false",
                               g.checkpointing == GptCheckpointing::full ? "full" : g.checkpointing == GptCheckpointing::selective ? "selective" : "none");
    bld.w.batch = g.batch;
    bld.w.parameter_count = gpt_parameter_count(g);
    bld.w.cost_note = "synthetic gpt: no recorded times (workload.costs: device times it)";
    Gpt m(g, bld);
    const u64 h = g.hidden, S = u64(g.seq) * g.batch;
    const double e = m.e, Sd = m.S, hd = m.h, V = m.V;
    // Parameters in model order: embedding (tied with the output layer), positions, layers, final norm.
    const int word = m.param("embedding.word", u64(g.vocab) * h), pos = m.param("embedding.position", u64(g.seq) * h);
    for (int i = 0; i < g.layers; ++i) {
        const std::string tag = fmt::format("L{}", i);
        m.layer_params.push_back({m.param(tag + ".ln1", 2 * h), m.param(tag + ".qkv", 3 * h * h + 3 * h), m.param(tag + ".proj", h * h + h),
                                  m.param(tag + ".ln2", 2 * h), m.param(tag + ".fc1", 4 * h * h + 4 * h), m.param(tag + ".fc2", 4 * h * h + h)});
    }
    const int final_ln = m.param("final_ln", 2 * h);
    const TensorId tokens = bld.tensor("tokens", 8 * S, TensorRole::input, true);
    const TensorId labels = bld.tensor("labels", 8 * S, TensorRole::input, true);

    // Forward.
    // Without dropout the embedding's output is the first layer's saved input.
    TensorId x = g.dropout ? m.temp("embedding", Sd * hd) : m.act("embedding", Sd * hd);
    bld.op("embedding[embedding]", {tokens, m.w(word), m.w(pos)}, {x}, {Sd * hd, 8 * Sd + 2 * e * Sd * hd + e * m.s * hd});
    TensorId emb_mask = -1;
    if (g.dropout) {
        emb_mask = m.act("embedding.mask", Sd * hd, 1);
        const TensorId dropped = m.act("embedding.dropped", Sd * hd);
        bld.op("dropout[embedding]", {x}, {emb_mask, dropped}, m.dropout_cost(Sd * hd));
        x = dropped;
    }
    std::vector<TensorId> layer_input;
    for (int i = 0; i < g.layers; ++i) {
        layer_input.push_back(x);
        m.forward.push_back(m.layer_forward(i, x, false, false));
        x = m.forward.back().y;
    }
    const TensorId final_out = m.act("final_ln", Sd * hd);
    bld.op("layer_norm[final_ln]", {x, m.w(final_ln)}, {final_out}, layer_norm_cost(Sd, hd, e));
    const TensorId logits = m.act("logits", Sd * V, 4);
    bld.op("matmul[logits]", {final_out, m.w(word)}, {logits}, matmul_cost(Sd, hd, V, e, 4));
    const TensorId loss = m.act("loss", 1, 4);
    bld.op("cross_entropy[loss]", {logits, labels}, {loss}, {5 * Sd * V, 4 * Sd * V + 8 * Sd + 4}, kNoOp, Dtype::fp32);
    bld.w.forward_end = static_cast<int>(bld.w.ops.size());
    bld.w.forward_end_rule = "synthetic: after the cross-entropy";

    // Backward.
    std::vector<TensorId> grads(m.params.size(), -1);
    const TensorId dlogits = m.temp("logits.grad", Sd * V, 4);
    bld.op("cross_entropy_backward[loss]", {loss, logits, labels}, {dlogits}, {10 * Sd * V, 8 * Sd * V + 8 * Sd + 4}, kNoOp, Dtype::fp32);
    const TensorId dfinal = m.temp("final_ln.grad", Sd * hd);
    const TensorId word_grad_out = m.temp("embedding.word.grad_output_layer", V * hd);
    bld.op("matmul_backward[logits]", {dlogits, final_out, m.w(word)}, {dfinal, word_grad_out}, matmul_backward_cost(Sd, hd, V, e, 4));
    TensorId dy = m.temp("final_ln.input_grad", Sd * hd);
    grads[final_ln] = m.param_grad(final_ln);
    bld.op("layer_norm_backward[final_ln]", {dfinal, x, m.w(final_ln)}, {dy, grads[final_ln]}, {2 * 8 * Sd * hd, e * (3 * Sd * hd + 4 * hd)});
    for (int i = g.layers - 1; i >= 0; --i) dy = m.layer_backward(i, layer_input[i], dy, grads);
    if (g.dropout) {
        const TensorId demb = m.temp("embedding.grad", Sd * hd);
        bld.op("dropout_backward[embedding]", {dy, emb_mask}, {demb}, elementwise_cost(Sd * hd, 4, 2 * e + 1));
        dy = demb;
    }
    grads[word] = m.param_grad(word);
    grads[pos] = m.param_grad(pos);
    bld.op("embedding_backward[embedding]", {dy, tokens, word_grad_out}, {grads[word], grads[pos]},
           {2 * Sd * hd + V * hd, e * Sd * hd + 8 * Sd + 2 * e * V * hd + e * m.s * hd});

    // The optimizer: one Adam update per parameter group, in place (no outputs); 14 FLOPs
    // and 28 bytes an element (docs/workloads.md, "Synthetic GPT").
    for (std::size_t p = 0; p < m.params.size(); ++p) {
        std::vector<TensorId> in = {grads[p], m.params[p].weights};
        in.insert(in.end(), m.params[p].state.begin(), m.params[p].state.end());
        const double n = static_cast<double>(m.params[p].elements);
        bld.op(fmt::format("adam[{}]", m.params[p].name), std::move(in), {}, elementwise_cost(n, 14, 28), kNoOp, Dtype::fp32);
    }
    bld.release_after_last_use();
    return std::move(bld.w);
}

}  // namespace memsim
