#include "models/workload/example_mlp.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/checked_math.h"
#include "models/io/atomic_file.h"
#include "models/workload/workload_limits.h"
#include "models/workload/input_error.h"

namespace memsim {

namespace {

constexpr double kFlopsPerMs = 2e6;  // a nominal 2 GFLOP/s device
constexpr std::uint64_t kFloat = 4;

class Builder {
public:
    explicit Builder(Workload& w) : w_(w) {}

    // Adds an op producing one tensor of `bytes`; scratch buffers live inside it.
    TensorId op(const std::string& kind, std::vector<TensorId> inputs, std::uint64_t bytes, double flops,
                std::vector<std::uint64_t> scratch = {}) {
        const int i = static_cast<int>(w_.ops.size());
        Op o;
        o.name = fmt::format("{}th:{}", i, kind);
        o.cost_ms = std::max(flops, 1e3) / kFlopsPerMs;
        o.inputs = std::move(inputs);
        o.outputs = {i};
        w_.ops.push_back(o);
        Tensor t;
        t.name = std::to_string(i);
        t.bytes = bytes;
        t.producer = i;
        tensors_.push_back(t);
        scratch_.push_back(std::move(scratch));
        return i;
    }

    void keep(TensorId t) { kept_.push_back(t); }

    // Releases every tensor after its last use; scratch ids come after the outputs.
    void finish() {
        const int n = static_cast<int>(w_.ops.size());
        w_.tensors = tensors_;
        std::vector<int> last(n, -1);
        for (int i = 0; i < n; ++i) {
            last[i] = std::max(last[i], i);
            for (TensorId t : w_.ops[i].inputs) last[t] = i;
        }
        for (TensorId t : kept_) last[t] = -1;
        for (int t = 0; t < n; ++t)
            if (last[t] >= 0) w_.ops[last[t]].release.push_back(t);
        for (int i = 0; i < n; ++i) {
            for (std::size_t k = 0; k < scratch_[i].size(); ++k) {
                Tensor s;
                s.name = fmt::format("{}:{}", i, k);
                s.bytes = scratch_[i][k];
                s.producer = i;
                s.scratch = true;
                const auto id = static_cast<TensorId>(w_.tensors.size());
                w_.tensors.push_back(s);
                w_.ops[i].scratch.push_back({true, id});
            }
            for (std::size_t k = 0; k < scratch_[i].size(); ++k)
                w_.ops[i].scratch.push_back({false, w_.ops[i].scratch[k].tensor});
        }
    }

private:
    Workload& w_;
    std::vector<Tensor> tensors_;
    std::vector<std::vector<std::uint64_t>> scratch_;
    std::vector<TensorId> kept_;
};

// Up front: the op count must fit in memory and the largest tensor (a batch of the widest
// layer, or a weight matrix) in byte arithmetic; check_workload_limits then checks the total.
void check_mlp_size(const MlpShape& s) {
    const std::size_t layers = static_cast<std::size_t>(s.layers) + 1;
    check_workload_fits_memory(12 * layers + 8, 14 * layers + 8, "example mlp");
    const std::uint64_t widest = std::max({s.input, s.hidden, s.classes});
    const auto batch_bytes = checked_mul(static_cast<std::uint64_t>(s.batch) * kFloat, widest);
    const auto weight_bytes = checked_mul(widest * kFloat, widest);
    if (!batch_bytes || !weight_bytes || *batch_bytes > kMaxTotalBytes || *weight_bytes > kMaxTotalBytes)
        throw InputError(fmt::format("example mlp: batch {} with layers {} values wide has tensors past 2^53 bytes", s.batch,
                                     widest));
}

}  // namespace

Workload make_example_mlp(const MlpShape& s) {
    if (s.batch < 1 || s.input < 1 || s.hidden < 1 || s.layers < 1 || s.classes < 2)
        throw InputError(fmt::format("example mlp: invalid shape (batch {}, input {}, hidden {}, layers {}, classes {})",
                                     s.batch, s.input, s.hidden, s.layers, s.classes));
    check_mlp_size(s);
    Workload w;
    w.name = "mlp";
    w.batch = s.batch;
    w.source = "example mlp";
    Builder b(w);
    const auto B = static_cast<std::uint64_t>(s.batch);
    auto mat = [&](std::uint64_t rows, std::uint64_t cols) { return rows * cols * kFloat; };

    // Label side first, as in MNN graphs: a label index, cast, one-hot.
    const TensorId label_idx = b.op("Raster", {}, mat(B, 1), 0);
    const TensorId label_cast = b.op("Cast", {label_idx}, mat(B, 1), static_cast<double>(B));
    const TensorId one_hot = b.op("OneHot", {label_cast}, mat(B, s.classes), static_cast<double>(B * s.classes));

    TensorId h = b.op("Raster", {}, mat(B, s.input), 0);  // the input batch
    std::vector<TensorId> weights, biases, acts, inputs_of_layer, pre_relu;
    std::uint64_t fan_in = s.input;
    for (int l = 0; l <= s.layers; ++l) {
        const bool last = l == s.layers;
        const std::uint64_t fan_out = last ? s.classes : s.hidden;
        const TensorId wt = b.op("Raster", {}, mat(fan_in, fan_out), 0);
        const TensorId bias = b.op("Raster", {}, mat(1, fan_out), 0);
        const double mm = 2.0 * static_cast<double>(B * fan_in * fan_out);
        const TensorId z = b.op("MatMul", {h, wt}, mat(B, fan_out), mm, {mat(fan_in, fan_out) / 2});
        const TensorId zb = b.op("BinaryOp", {z, bias}, mat(B, fan_out), static_cast<double>(B * fan_out));
        weights.push_back(wt);
        biases.push_back(bias);
        inputs_of_layer.push_back(h);
        pre_relu.push_back(zb);
        h = last ? zb : b.op("ReLU", {zb}, mat(B, fan_out), static_cast<double>(B * fan_out));
        acts.push_back(h);
        fan_in = fan_out;
    }
    const TensorId softmax = b.op("Softmax", {h}, mat(B, s.classes), 5.0 * static_cast<double>(B * s.classes));
    const TensorId loss = b.op("BinaryOp", {softmax, one_hot}, mat(B, s.classes), static_cast<double>(B * s.classes));
    // Backward: the gradient of the cross-entropy w.r.t. the logits.
    TensorId grad = b.op("BinaryOp", {softmax, loss}, mat(B, s.classes), static_cast<double>(B * s.classes));
    for (int l = s.layers; l >= 0; --l) {
        const std::uint64_t fan_out = l == s.layers ? s.classes : s.hidden;
        const std::uint64_t fan_in_l = l == 0 ? s.input : s.hidden;
        if (l != s.layers)  // through the ReLU: needs its input
            grad = b.op("BinaryOp", {grad, pre_relu[l]}, mat(B, fan_out), static_cast<double>(B * fan_out));
        const double mm = 2.0 * static_cast<double>(B * fan_in_l * fan_out);
        const TensorId dw = b.op("MatMul", {inputs_of_layer[l], grad}, mat(fan_in_l, fan_out), mm, {mat(B, fan_in_l)});
        const TensorId db = b.op("Reduction", {grad}, mat(1, fan_out), static_cast<double>(B * fan_out));
        const TensorId w_new = b.op("BinaryOp", {weights[l], dw}, mat(fan_in_l, fan_out), static_cast<double>(fan_in_l * fan_out));
        const TensorId b_new = b.op("BinaryOp", {biases[l], db}, mat(1, fan_out), static_cast<double>(fan_out));
        b.keep(w_new);
        b.keep(b_new);
        if (l > 0) grad = b.op("MatMul", {grad, weights[l]}, mat(B, fan_in_l), mm, {mat(fan_in_l, fan_out) / 2});
    }
    b.finish();
    w.forward_end = loss + 1;
    w.forward_end_rule = "generator: the loss op ends the forward pass";
    // The loader's limits (total bytes, compute time): `memsim generate` must not write a
    // profile that memsim would then refuse to load.
    check_workload_limits(w);
    return w;
}

void write_mnn_profile(const Workload& w, const std::string& dir) {
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    nlohmann::json io = nlohmann::json::array(), sizes = nlohmann::json::object(), resize = nlohmann::json::array(),
                   costs = nlohmann::json::object();
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i) {
        const Op& op = w.ops[i];
        nlohmann::json entry;
        entry["op"] = op.name;
        entry["id"] = i;
        entry["inputs"] = op.inputs;
        entry["outputs"] = op.outputs;
        entry["temporary"] = op.outputs;
        entry["release"] = op.release;
        io.push_back(entry);
        nlohmann::json events = nlohmann::json::array();
        for (const ScratchEvent& e : op.scratch) events.push_back({e.alloc ? "alloc" : "free", w.tensors[e.tensor].name});
        resize.push_back(events);
        costs[std::to_string(i)] = op.cost_ms;
    }
    for (const Tensor& t : w.tensors) sizes[t.name] = t.bytes;
    auto write = [&](const std::string& name, const nlohmann::json& j) {
        write_file_atomically((fs::path(dir) / name).string(), j.dump(1) + "\n");
    };
    write(fmt::format("{}.io_info.json", w.name), io);
    write(fmt::format("{}.{}.tensor_size.json", w.name, w.batch), sizes);
    write(fmt::format("{}.{}.resize_info.json", w.name, w.batch), resize);
    write(fmt::format("{}.{}.cost_info.json", w.name, w.batch), costs);
}

}  // namespace memsim
