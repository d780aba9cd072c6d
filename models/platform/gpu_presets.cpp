// The GPU presets: each number from the product's datasheet (docs/gpu_model.md, "Presets",
// names every source). Peaks are dense (no structured sparsity); fp16/bf16 peaks are the
// tensor cores' with fp32 accumulation, as PyTorch's matrix products use them. Bandwidth
// is in decimal GB/s as datasheets give it; memory sizes are binary (80 GB HBM = 80 GiB).

#include "models/platform/gpu_spec.h"
#include "models/policy_table.h"

namespace memsim {

namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
// Not a datasheet number: the order of a CUDA kernel launch plus PyTorch's dispatch,
// the same for every preset (docs/gpu_model.md, "Launch overhead").
constexpr double kLaunchMs = 0.005;

GpuSpec row(const char* name, double fp32, std::optional<double> bf16, std::optional<double> fp16, double gb_per_s,
            std::uint64_t gib) {
    return GpuSpec{name, fp32 * kTera, bf16 ? std::optional(*bf16 * kTera) : std::nullopt,
                   fp16 ? std::optional(*fp16 * kTera) : std::nullopt, gb_per_s * kGiga, kLaunchMs, gib * kGiB};
}

}  // namespace

const std::vector<GpuPreset>& gpu_presets() {
    static const std::vector<GpuPreset> presets = {
        // NVIDIA Tesla V100 datasheet (SXM2): 15.7 TFLOPS single, 125 TFLOPS tensor, 900 GB/s, 32 GB.
        {"v100", "NVIDIA Tesla V100 SXM2 32 GB", row("v100", 15.7, std::nullopt, 125, 900, 32)},
        // NVIDIA A100 datasheet, A100 40GB SXM: 19.5 FP32, 312 BF16/FP16 tensor, 1,555 GB/s.
        {"a100_40gb", "NVIDIA A100 40GB SXM", row("a100_40gb", 19.5, 312, 312, 1555, 40)},
        // The same datasheet, A100 80GB SXM: 2,039 GB/s.
        {"a100_80gb", "NVIDIA A100 80GB SXM", row("a100_80gb", 19.5, 312, 312, 2039, 80)},
        // NVIDIA H100 datasheet, H100 SXM: 67 FP32, 1,979 BF16/FP16 with sparsity (989.5 dense), 3.35 TB/s.
        {"h100_sxm", "NVIDIA H100 SXM 80 GB", row("h100_sxm", 67, 989.5, 989.5, 3350, 80)},
        // NVIDIA TITAN V product page: 110 TFLOPS tensor, 652.8 GB/s, 12 GB; FP32 = 5120 cores x 1455 MHz x 2.
        {"titan_v", "NVIDIA TITAN V (the DTR prototype's GPU)", row("titan_v", 14.9, std::nullopt, 110, 652.8, 12)},
        // NVIDIA Ada GPU Architecture whitepaper, GeForce RTX 4090: 82.6 FP32, 165.2 FP16/BF16 tensor
        // with FP32 accumulate, 1,008 GB/s, 24 GB.
        {"rtx_4090", "NVIDIA GeForce RTX 4090", row("rtx_4090", 82.6, 165.2, 165.2, 1008, 24)},
    };
    return presets;
}

const GpuSpec* find_gpu_preset(std::string_view name) {
    const GpuPreset* row = find_row(gpu_presets(), name);
    return row ? &row->spec : nullptr;
}

std::vector<std::string> gpu_preset_names() { return row_names(gpu_presets()); }

}  // namespace memsim
