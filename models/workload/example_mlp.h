// The project's own example: one training iteration of a small multilayer perceptron
// (input, L dense layers with bias and ReLU, softmax cross-entropy against a one-hot
// label, backward pass with weight updates), built in the structure of an MNN
// profile. Sizes are 4-byte floats; costs come from a nominal 2 GFLOP/s device.
#pragma once

#include <string>

#include "models/workload/workload.h"

namespace memsim {

struct MlpShape {
    int batch = 4;
    int input = 784;
    int hidden = 512;
    int layers = 4;  // hidden layers
    int classes = 10;
};

Workload make_example_mlp(const MlpShape& shape);

// Writes `w` as an MNN profile folder (M.io_info.json, M.B.tensor_size.json,
// M.B.resize_info.json, M.B.cost_info.json) that load_mnn_profile reads back.
void write_mnn_profile(const Workload& w, const std::string& dir);

}  // namespace memsim
