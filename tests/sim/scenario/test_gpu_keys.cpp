// platform.gpu's device model keys and workload.costs: device (docs/gpu_model.md): a
// preset, numbers written out, a preset with one replaced, and every bad value refused
// with the file, the key and the value.
#include <catch2/catch.hpp>

#include "models/workload/input_error.h"
#include "sim/app/run/workload_factory.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

namespace {

const char* kGpt = R"(
name: t
workload: {synthetic: gpt, layers: 2, hidden: 64, heads: 4, seq: 32, batch: 2, vocab: 100, costs: device}
platform:
  gpu: {preset: a100_80gb}
)";

std::string error_of(const char* yaml, const std::vector<std::string>& sets) {
    try {
        (void)parse_scenario(yaml, "t.yaml", sets);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("device model keys: a preset, its numbers written out, and a preset with one number replaced") {
    const Scenario s = parse_scenario(kGpt, "t.yaml");
    REQUIRE(s.platform.gpu_model);
    CHECK(s.platform.gpu_model->preset == "a100_80gb");
    CHECK(s.platform.gpu_model->memory_bytes_per_s == 2039e9);
    CHECK(s.workload.costs == "device");
    const Scenario custom = parse_scenario(kGpt, "t.yaml",
                                           {"platform.gpu={peak_flops: {fp32: 1e13, bf16: 1e14}, memory_bandwidth: 1TB/s, "
                                            "launch_overhead: 10us}"});
    REQUIRE(custom.platform.gpu_model);
    CHECK(custom.platform.gpu_model->preset.empty());
    CHECK(custom.platform.gpu_model->fp32_flops == 1e13);
    CHECK(*custom.platform.gpu_model->bf16_flops == 1e14);
    CHECK_FALSE(custom.platform.gpu_model->fp16_flops);
    CHECK(custom.platform.gpu_model->memory_bytes_per_s == 1e12);
    CHECK(custom.platform.gpu_model->launch_overhead_ms == Approx(0.01));
    const Scenario tuned = parse_scenario(kGpt, "t.yaml", {"platform.gpu.launch_overhead=0s"});
    CHECK(tuned.platform.gpu_model->preset == "a100_80gb (modified)");
    CHECK(tuned.platform.gpu_model->launch_overhead_ms == 0.0);
    CHECK(tuned.platform.gpu_model->fp32_flops == 19.5e12);
    // speed_scale alone is no device model; recorded is measured's other name.
    const Scenario plain = parse_scenario(kGpt, "t.yaml", {"platform.gpu={speed_scale: 2}", "workload.costs=recorded"});
    CHECK_FALSE(plain.platform.gpu_model);
    CHECK(plain.workload.costs == "measured");
}

TEST_CASE("device model keys: bad values name the file, the key and the value") {
    CHECK(error_of(kGpt, {"platform.gpu.preset=a100"}) ==
          "--set 'platform.gpu.preset=a100': platform.gpu.preset: unknown value 'a100' (did you mean 'v100'?)");
    CHECK_THAT(error_of(kGpt, {"platform.gpu={memory_bandwidth: 1TB/s, launch_overhead: 1us}"}),
               Catch::Contains("platform.gpu.peak_flops: missing: without platform.gpu.preset give peak_flops (fp32 at least)"));
    CHECK_THAT(error_of(kGpt, {"platform.gpu={peak_flops: {bf16: 1e14}, memory_bandwidth: 1TB/s, launch_overhead: 1us}"}),
               Catch::Contains("platform.gpu.peak_flops.fp32: missing"));
    CHECK_THAT(error_of(kGpt, {"platform.gpu.peak_flops.fp16=-3"}), Catch::Contains("platform.gpu.peak_flops.fp16: -3 must be > 0 flop/s"));
    CHECK_THAT(error_of(kGpt, {"platform.gpu.peak_flops.fp32=1e30"}),
               Catch::Contains("platform.gpu.peak_flops.fp32: '1e30' = 1e+30 flop/s is out of range [1e+06, 1e+18] flop/s"));
    CHECK_THAT(error_of(kGpt, {"platform.gpu.memory_bandwidth=fast"}), Catch::Contains("platform.gpu.memory_bandwidth:"));
    CHECK_THAT(error_of(kGpt, {"platform.gpu.peak_flops.fp64=1e12"}), Catch::Contains("unknown key 'platform.gpu.peak_flops.fp64'"));
    CHECK_THAT(error_of(kGpt, {"workload.costs=roofline"}), Catch::Contains("workload.costs: unknown value 'roofline'"));
    CHECK_THAT(error_of(kGpt, {"workload.precision=fp8"}), Catch::Contains("workload.precision: unknown value 'fp8'"));
    CHECK_THAT(error_of(kGpt, {"workload.checkpointing=some"}), Catch::Contains("workload.checkpointing: unknown value 'some'"));
    CHECK_THAT(error_of(kGpt, {"workload.dropout=maybe"}), Catch::Contains("workload.dropout: 'maybe' is not true or false"));
    CHECK_THAT(error_of(kGpt, {"workload.costs=linear_fit"}), Catch::Contains("workload.costs: linear_fit applies to profile folders only"));
}

TEST_CASE("device model keys: costs: device needs a device model, refuses speed_scale, and times the gpt step") {
    auto load_error = [](const std::vector<std::string>& sets) {
        try {
            (void)load_workload(parse_scenario(kGpt, "t.yaml", sets));
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(load_error({"platform.gpu=null"}), Catch::StartsWith("t.yaml: workload.costs: device needs a device model: "
                                                                    "platform.gpu.preset (one of v100, a100_40gb"));
    CHECK_THAT(load_error({"platform.gpu.speed_scale=4"}), Catch::Contains("platform.gpu.speed_scale (4) scales recorded times"));
    CHECK_THAT(load_error({"workload.costs=recorded"}), Catch::Contains("the gpt workload records no operator times"));
    CHECK_THAT(load_error({"platform.gpu={peak_flops: {fp32: 1e13}, memory_bandwidth: 1TB/s, launch_overhead: 1us}"}),
               Catch::Contains("the GPU has no bf16 peak (platform.gpu.peak_flops.bf16)"));
    CHECK_THAT(load_error({"workload.dropout=true", "workload.synthetic=chain"}), Catch::Contains("workload.dropout: only the gpt workload takes it"));
    const Workload w = load_workload(parse_scenario(kGpt, "t.yaml"));
    // Matrix products on the tensor cores: FLOPs over 312 Tflop/s when compute-bound; a
    // softmax is memory-bound: its bytes over 2039 GB/s. Each plus the 5 us launch.
    for (const Op& op : w.ops) {
        const double compute = op.flops / (op.dtype == Dtype::fp32 ? 19.5e12 : 312e12) * 1e3;
        const double memory = op.bytes_moved / 2039e9 * 1e3;
        CHECK(op.cost_ms == Approx(std::max(compute, memory) + 0.005).epsilon(1e-12));
    }
    CHECK(w.cost_note == "device model: roofline on a100_80gb");
}
