// The device model (docs/gpu_model.md): roofline times of operators whose FLOPs and bytes
// are worked out by hand (a matrix product, a convolution, a softmax, a layer norm), the
// presets' datasheet numbers, and workload.costs: device on a whole workload.
#include <catch2/catch.hpp>

#include "models/platform/gpu_model.h"
#include "models/workload/input_error.h"
#include "models/workload/op_costs.h"

using namespace memsim;

namespace {

const GpuSpec& preset(const char* name) {
    const GpuSpec* gpu = find_gpu_preset(name);
    REQUIRE(gpu != nullptr);
    return *gpu;
}

}  // namespace

TEST_CASE("device model: a 1024^3 matrix product is compute-bound, in fp32 and on the tensor cores") {
    // [1024, 1024] x [1024, 1024]: 2 x 1024^3 FLOPs; three 1024^2 matrices of 4 bytes.
    const OpCost fp32 = matmul_cost(1024, 1024, 1024, 4, 4);
    CHECK(fp32.flops == 2147483648.0);
    CHECK(fp32.bytes == 12582912.0);
    const GpuSpec& a100 = preset("a100_80gb");
    // 2147483648 / 19.5e12 s = 0.110127366 ms (memory: 12582912 / 2039e9 s = 0.006171 ms), + 5 us.
    CHECK(roofline_ms(a100, fp32.flops, fp32.bytes, Dtype::fp32, "t") == Approx(0.110127366 + 0.005).epsilon(1e-8));
    // bf16: 2147483648 / 312e12 s = 0.006882960 ms; memory 6291456 / 2039e9 s = 0.003085560 ms.
    const OpCost bf16 = matmul_cost(1024, 1024, 1024, 2, 2);
    CHECK(bf16.bytes == 6291456.0);
    CHECK(roofline_ms(a100, bf16.flops, bf16.bytes, Dtype::bf16, "t") == Approx(0.006882960 + 0.005).epsilon(1e-6));
    // A dtype the source did not record is timed at the fp32 peak (no tensor cores assumed).
    CHECK(roofline_ms(a100, bf16.flops, bf16.bytes, Dtype::unknown, "t") == Approx(0.110127366 + 0.005).epsilon(1e-8));
}

TEST_CASE("device model: ResNet's first convolution on a V100 is compute-bound") {
    // 3 -> 64 channels, 224x224 -> 112x112, 7x7, batch 1, fp32.
    const OpCost c = conv2d_cost(1, 3, 224, 224, 64, 112, 112, 7, 7, 4);
    CHECK(c.flops == 236027904.0);  // 2 x (64 x 112 x 112) x (3 x 7 x 7)
    CHECK(c.bytes == 3851008.0);    // 4 x (3x224x224 + 64x3x7x7 + 64x112x112) = 4 x 962752
    // 236027904 / 15.7e12 s = 0.015033624 ms; memory 3851008 / 900e9 s = 0.004278898 ms.
    CHECK(roofline_ms(preset("v100"), c.flops, c.bytes, Dtype::fp32, "t") == Approx(0.015033624 + 0.005).epsilon(1e-7));
}

TEST_CASE("device model: a softmax and a layer norm are memory-bound") {
    // Softmax over 8 heads x 512 x 512 scores in fp16: 5 FLOPs an element, read + write.
    const OpCost s = softmax_cost(8 * 512 * 512, 2);
    CHECK(s.flops == 10485760.0);
    CHECK(s.bytes == 8388608.0);
    // 8388608 / 1555e9 s = 0.005394603 ms (compute 10485760 / 312e12 s = 0.0000336 ms).
    CHECK(roofline_ms(preset("a100_40gb"), s.flops, s.bytes, Dtype::fp16, "t") == Approx(0.005394603 + 0.005).epsilon(1e-6));
    // Layer norm of 2048 rows of 1024 in fp32: 8 FLOPs an element; reads x, gamma, beta, writes y.
    const OpCost ln = layer_norm_cost(2048, 1024, 4);
    CHECK(ln.flops == 16777216.0);
    CHECK(ln.bytes == 16785408.0);  // 4 x (2 x 2097152 + 2 x 1024)
    // 16785408 / 3.35e12 s = 0.005010569 ms (compute 16777216 / 67e12 s = 0.000250406 ms).
    CHECK(roofline_ms(preset("h100_sxm"), ln.flops, ln.bytes, Dtype::fp32, "t") == Approx(0.005010569 + 0.005).epsilon(1e-6));
}

TEST_CASE("device model: presets carry their datasheet numbers, and a GPU without bf16 refuses a bf16 operator") {
    CHECK(gpu_preset_names() == std::vector<std::string>{"v100", "a100_40gb", "a100_80gb", "h100_sxm", "titan_v", "rtx_4090"});
    CHECK(preset("a100_80gb").memory_bytes_per_s == 2039e9);
    CHECK(preset("a100_80gb").memory_bytes == 80ULL << 30);
    CHECK(*preset("h100_sxm").bf16_flops == 989.5e12);
    CHECK(*preset("titan_v").fp16_flops == 110e12);
    CHECK(preset("rtx_4090").fp32_flops == 82.6e12);
    CHECK(find_gpu_preset("a100") == nullptr);
    CHECK_THROWS_WITH(roofline_ms(preset("v100"), 1e9, 1e6, Dtype::bf16, "op 7 (mm)"),
                      "op 7 (mm): the GPU v100 has no bf16 peak (platform.gpu.peak_flops.bf16)");
}

TEST_CASE("device model: costs: device retimes every operator, views cost nothing, a workload without counts is refused") {
    Workload w;
    w.source = "t.log";
    w.tensors.resize(2);
    Op mm;
    mm.name = "mm";
    mm.cost_ms = 40;  // what the CPU took
    mm.flops = 19.5e9;  // 1 ms at 19.5 TFLOPS
    mm.bytes_moved = 1e6;
    mm.dtype = Dtype::fp32;
    Op softmax;
    softmax.name = "softmax";
    softmax.cost_ms = 30;
    softmax.flops = 1e6;
    softmax.bytes_moved = 2039e6;  // 1 ms at 2039 GB/s
    softmax.dtype = Dtype::fp32;
    Op view;
    view.name = "view";
    view.cost_ms = 0.01;
    w.ops = {mm, softmax, view};
    apply_device_costs(w, preset("a100_80gb"), "s.yaml: workload.costs");
    CHECK(w.ops[0].cost_ms == Approx(1.005));
    CHECK(w.ops[1].cost_ms == Approx(1.005));
    CHECK(w.ops[2].cost_ms == 0.0);
    CHECK(w.cost_note == "device model: roofline on a100_80gb");
    Workload none;
    none.source = "old.log";
    none.ops.resize(2);
    CHECK_THROWS_WITH(apply_device_costs(none, preset("v100"), "s.yaml: workload.costs"),
                      Catch::StartsWith("s.yaml: workload.costs: device: old.log records no operator's FLOPs or bytes"));
}
