// costs: device on a traced log (docs/gpu_model.md): the shipped GPT trace
// (examples/traced/gpt_b8.log, CPU times) timed on the a100_80gb preset by its recorded
// FLOPS and BYTES. The roofline's point: matrix products gain hundreds of times over the
// CPU, memory-bound operators far less, so the proportions change.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "models/workload/dtr_log.h"
#include "sim/app/run/workload_factory.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

TEST_CASE("device costs on a traced log: matrix products gain hundreds of times, memory-bound operators far less") {
    const std::string log = std::string(MEMSIM_SOURCE_DIR) + "/examples/traced/gpt_b8.log";
    const Workload cpu = load_dtr_log(log);
    const Workload gpu = load_workload(parse_scenario(
        "workload: {dtr_log: '" + log + "', costs: device}\nplatform: {gpu: {preset: a100_80gb}}\n", "test"));
    REQUIRE(cpu.ops.size() == gpu.ops.size());
    const std::set<std::string> matmul = {"mm", "addmm", "bmm"};
    // Mean CPU / GPU time ratio per operator class (ops the device times above 0).
    std::map<std::string, std::pair<double, int>> gain;
    double cpu_total = 0, gpu_total = 0, cpu_matmul = 0, gpu_matmul = 0;
    for (std::size_t i = 0; i < cpu.ops.size(); ++i) {
        const std::string cls = matmul.count(gpu.ops[i].name) ? "matmul" : gpu.ops[i].name;
        cpu_total += cpu.ops[i].cost_ms;
        gpu_total += gpu.ops[i].cost_ms;
        if (cls == "matmul") cpu_matmul += cpu.ops[i].cost_ms, gpu_matmul += gpu.ops[i].cost_ms;
        if (gpu.ops[i].cost_ms > 0 && cpu.ops[i].cost_ms > 0) {
            gain[cls].first += cpu.ops[i].cost_ms / gpu.ops[i].cost_ms;
            ++gain[cls].second;
        }
    }
    const auto mean_gain = [&](const std::string& cls) {
        REQUIRE(gain.count(cls));
        return gain[cls].first / gain[cls].second;
    };
    const double matmul_gain = mean_gain("matmul");
    INFO("matmul gain " << matmul_gain);
    CHECK(matmul_gain > 100);
    for (const std::string memory_bound : {"_softmax", "native_layer_norm", "gelu", "add", "clone"}) {
        INFO(memory_bound << " gain " << mean_gain(memory_bound));
        CHECK(mean_gain(memory_bound) < 100);
        CHECK(mean_gain(memory_bound) < matmul_gain / 10);
    }
    // The CPU spends most of the step in matrix products; on the GPU their share falls below
    // a quarter (a model this small is launch- and memory-bound there).
    CHECK(cpu_matmul / cpu_total > 0.9);
    CHECK(gpu_matmul / gpu_total < 0.25);
}
