// What an operator computes and moves, by its class, in the convention of
// docs/gpu_model.md ("Counting FLOPs and bytes"): a multiply-add is 2 FLOPs; an element-wise
// operator or a reduction costs a fixed count per element; bytes are every operand read
// once plus every result written once (no cache reuse, no re-reads). The synthetic GPT
// step (synthetic_gpt.h) is costed with these; the tracer counts the same way.
#pragma once

namespace memsim {

struct OpCost {
    double flops = 0;
    double bytes = 0;
};

// [m, k] x [k, n]: 2mkn FLOPs; operands of `in` bytes per element, the result of `out`.
constexpr OpCost matmul_cost(double m, double k, double n, double in, double out) {
    return {2 * m * k * n, in * (m * k + k * n) + out * m * n};
}

// Its backward: dA = dC Bᵀ and dB = Aᵀ dC, two products of the forward's size (4mkn);
// reads dC (`grad` bytes per element), A and B, writes dA and dB.
constexpr OpCost matmul_backward_cost(double m, double k, double n, double elem, double grad) {
    return {4 * m * k * n, grad * m * n + elem * (m * k + k * n) + elem * (m * k + k * n)};
}

// A 2-D convolution (no bias): 2 FLOPs per multiply-add of every output element over
// in_c x kh x kw inputs; reads the input and the weights, writes the output.
constexpr OpCost conv2d_cost(double batch, double in_c, double in_h, double in_w, double out_c, double out_h, double out_w,
                             double kh, double kw, double elem) {
    const double outputs = batch * out_c * out_h * out_w;
    return {2 * outputs * in_c * kh * kw, elem * (batch * in_c * in_h * in_w + out_c * in_c * kh * kw + outputs)};
}

// Softmax over rows: 5 FLOPs an element (max, subtract, exp, sum, divide); reads and
// writes every element.
constexpr OpCost softmax_cost(double elements, double elem) { return {5 * elements, 2 * elem * elements}; }

// Layer norm of rows of `cols`: 8 FLOPs an element (mean 1; variance 3: subtract, square,
// add; normalise 2; affine 2); reads the input, gamma and beta, writes the output.
constexpr OpCost layer_norm_cost(double rows, double cols, double elem) {
    return {8 * rows * cols, elem * (2 * rows * cols + 2 * cols)};
}

// Any other element-wise operator: `per_element` FLOPs, `bytes_per_element` read plus
// written.
constexpr OpCost elementwise_cost(double elements, double per_element, double bytes_per_element) {
    return {per_element * elements, bytes_per_element * elements};
}

}  // namespace memsim
