// The synthetic GPT step against the published counts, over several shapes, both
// precisions, with and without dropout, and every checkpointing mode: parameters
// L(12h² + 13h) + Vh + sh + 2h (Narayanan et al.), the activations a layer saves
// s·b·h·(34 + 5as/h) bytes in mixed precision with dropout, 34·sbh with selective and
// 2·sbh with full recomputation (Korthikanti et al.), and matrix-product FLOPs
// 72·B·s·L·h²·(1 + s/6h + V/12Lh) per step (the re-run forward on top).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "models/workload/input_error.h"
#include "models/workload/synthetic.h"
#include "models/workload/synthetic_gpt.h"

using namespace memsim;
using u64 = std::uint64_t;

namespace {

GptShape shape(int L, int h, int a, int s, int b, int V, GptPrecision p, bool dropout, GptCheckpointing c) {
    GptShape g;
    g.layers = L, g.hidden = h, g.heads = a, g.seq = s, g.batch = b, g.vocab = V;
    g.precision = p, g.dropout = dropout, g.checkpointing = c;
    return g;
}

std::string op_class(const std::string& name) { return name.substr(0, name.find('[')); }

u64 bytes_of_role(const Workload& w, TensorRole role) {
    u64 total = 0;
    for (const Tensor& t : w.tensors)
        if (t.role == role) total += t.bytes;
    return total;
}

// Bytes of tensors alive at the forward's end whose name starts with `prefix`.
u64 alive_bytes(const Workload& w, const std::string& prefix) {
    u64 total = 0;
    for (TensorId t : feature_maps(w))
        if (w.tensors[t].name.rfind(prefix, 0) == 0) total += w.tensors[t].bytes;
    return total;
}

const Tensor& named(const Workload& w, const std::string& name) {
    for (const Tensor& t : w.tensors)
        if (t.name == name) return t;
    FAIL("no tensor " << name);
    return w.tensors.front();
}

struct Shape {
    int L, h, a, s, b, V;
};

}  // namespace

TEST_CASE("synthetic gpt: parameters, saved activations and matrix-product FLOPs match the published formulas") {
    const Shape shapes[] = {{2, 8, 2, 4, 3, 16}, {3, 12, 3, 5, 2, 7}, {1, 16, 4, 16, 1, 32}, {4, 32, 8, 24, 2, 50}};
    for (const Shape& x : shapes)
        for (GptPrecision p : {GptPrecision::mixed, GptPrecision::fp32})
            for (bool dropout : {true, false})
                for (GptCheckpointing c : {GptCheckpointing::none, GptCheckpointing::selective, GptCheckpointing::full}) {
                    const GptShape g = shape(x.L, x.h, x.a, x.s, x.b, x.V, p, dropout, c);
                    INFO("L " << x.L << " h " << x.h << " a " << x.a << " s " << x.s << " b " << x.b << " V " << x.V
                              << (p == GptPrecision::mixed ? " mixed" : " fp32") << (dropout ? " dropout" : "")
                              << " checkpointing " << static_cast<int>(c));
                    const Workload w = make_gpt(g);
                    const u64 L = x.L, h = x.h, a = x.a, s = x.s, b = x.b, V = x.V;
                    const u64 sbh = s * b * h, as2b = a * s * s * b, e = p == GptPrecision::mixed ? 2 : 4;
                    // Parameters: their bytes over the element size; gradients alike; Adam's m
                    // and v (and the fp32 master copy in mixed precision) at 4 bytes.
                    const u64 params = L * (12 * h * h + 13 * h) + V * h + s * h + 2 * h;
                    CHECK(gpt_parameter_count(g) == params);
                    CHECK(bytes_of_role(w, TensorRole::parameter) == e * params);
                    CHECK(bytes_of_role(w, TensorRole::gradient) == e * params);
                    CHECK(bytes_of_role(w, TensorRole::optimizer_state) == (p == GptPrecision::mixed ? 12 : 8) * params);
                    CHECK(bytes_of_role(w, TensorRole::input) == 16 * s * b);  // tokens and labels, int64
                    // One layer's saved activations (layer 0: its input is the embedding's output).
                    u64 layer;
                    if (c == GptCheckpointing::full) layer = e * sbh;  // 2sbh in mixed precision
                    else if (p == GptPrecision::mixed) layer = (dropout ? 34 : 32) * sbh;
                    else layer = (dropout ? 66 : 64) * sbh;
                    if (c == GptCheckpointing::none) layer += (p == GptPrecision::mixed ? (dropout ? 5 : 2) : (dropout ? 9 : 4)) * as2b;
                    CHECK(gpt_layer_saved_bytes(g) == layer);
                    // Layer i's saved tensors: its own alive at the forward's end, but its output
                    // (the next layer's input), plus its input.
                    for (u64 i = 0; i < L; ++i) {
                        const std::string tag = "L" + std::to_string(i);
                        const std::string input = i > 0 ? "L" + std::to_string(i - 1) + ".out" : dropout ? "embedding.dropped" : "embedding";
                        CHECK(alive_bytes(w, tag + ".") - named(w, tag + ".out").bytes + named(w, input).bytes == layer);
                    }
                    // Everything alive at the forward's end: the layers, the embedding's dropout
                    // mask, the last layer's output, the final norm's output, fp32 logits, the loss.
                    const u64 extra = (dropout ? sbh : 0) + e * sbh + e * sbh + 4 * s * b * V + 4;
                    CHECK(feature_map_bytes(w) == L * layer + extra);
                    // Matrix-product FLOPs without recomputation: 72BsLh² + 12Bs²Lh + 6BsVh, i.e.
                    // 72·B·s·L·h²·(1 + s/6h + V/12Lh); the re-run forward's on top.
                    double model = 0, rerun = 0;
                    for (const Op& op : w.ops) {
                        const std::string k = op_class(op.name);
                        if (k != "matmul" && k != "matmul_backward") continue;
                        (op.recomputes == kNoOp ? model : rerun) += op.flops;
                    }
                    CHECK(model == static_cast<double>(72 * b * s * L * h * h + 12 * b * s * s * L * h + 6 * b * s * V * h));
                    CHECK(gpt_model_matmul_flops(g) == model);
                    const double attention = static_cast<double>(4 * b * s * s * h * L);  // QKᵀ and attention over V
                    CHECK(rerun == (c == GptCheckpointing::none ? 0.0
                                    : c == GptCheckpointing::selective ? attention
                                                                       : static_cast<double>(24 * b * s * L * h * h) + attention));
                }
}

TEST_CASE("synthetic gpt: every re-run op recomputes its forward original, and every op has its counts and dtype") {
    for (GptCheckpointing c : {GptCheckpointing::selective, GptCheckpointing::full}) {
        const Workload w = make_gpt(shape(2, 8, 2, 4, 1, 16, GptPrecision::mixed, true, c));
        int reruns = 0;
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const Op& op = w.ops[i];
            CHECK((op.flops > 0 && op.bytes_moved > 0));
            CHECK(op.dtype != Dtype::unknown);
            if (op.recomputes == kNoOp) continue;
            ++reruns;
            REQUIRE(op.recomputes < w.forward_end);
            std::string original = op.name;
            original.replace(original.find(".re"), 3, "");
            CHECK(w.ops[op.recomputes].name == original);
            CHECK(static_cast<int>(i) >= w.forward_end);
        }
        // selective: scores, softmax, dropout, attention over V per layer; full: the layer's 15 ops.
        CHECK(reruns == (c == GptCheckpointing::selective ? 2 * 4 : 2 * 15));
    }
    const Workload mixed = make_gpt(shape(1, 8, 2, 4, 1, 16, GptPrecision::mixed, false, GptCheckpointing::none));
    CHECK(mixed.ops.front().dtype == Dtype::bf16);
    const Workload fp32 = make_gpt(shape(1, 8, 2, 4, 1, 16, GptPrecision::fp32, false, GptCheckpointing::none));
    CHECK(fp32.ops.front().dtype == Dtype::fp32);
    CHECK(fp32.ops.back().name == "adam[final_ln]");
    CHECK(fp32.ops[fp32.forward_end - 1].name == "cross_entropy[loss]");
}

TEST_CASE("synthetic gpt: bad parameters are refused with the key and the value") {
    const std::map<std::string, double> ok = {{"layers", 2}, {"hidden", 8}, {"heads", 2}, {"seq", 4}, {"batch", 1}, {"vocab", 16}};
    CHECK(make_synthetic("gpt", SyntheticParams{ok, {{"precision", "fp32"}, {"checkpointing", "full"}, {"dropout", "false"}}})
              .source == "synthetic:gpt:layers=2,hidden=8,heads=2,seq=4,batch=1,vocab=16,precision=fp32,dropout=false,checkpointing=full");
    auto error = [&](std::map<std::string, double> numbers) {
        try {
            (void)make_synthetic("gpt", SyntheticParams{std::move(numbers), {}});
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    auto without = ok;
    without.erase("vocab");
    CHECK(error(without) == "synthetic gpt: workload.vocab is required (layers, hidden, heads, seq, batch, vocab)");
    auto odd = ok;
    odd["heads"] = 3;
    CHECK(error(odd) == "synthetic gpt: workload.heads: 3 does not divide hidden 8");
    auto half = ok;
    half["seq"] = 2.5;
    CHECK(error(half) == "synthetic gpt: workload.seq: 2.5 is not a whole number in [1, 1e+06]");
    auto extra = ok;
    extra["n"] = 3;
    CHECK_THAT(error(extra), Catch::StartsWith("synthetic gpt: unknown parameter 'n'"));
    auto huge = ok;
    huge["seq"] = 1e6, huge["heads"] = 8, huge["batch"] = 1e6;
    CHECK_THAT(error(huge), Catch::Contains("past the 9007199254740992 bytes a workload may hold"));
    CHECK_THROWS_WITH(make_synthetic("chain", SyntheticParams{{{"n", 3}}, {{"precision", "fp32"}}}),
                      "synthetic chain: unknown parameter 'precision' (known: n)");
}
