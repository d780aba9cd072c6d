// The device model (docs/gpu_model.md): an operator's time on a named GPU from what it
// computes and moves, not from the machine it was traced on. Its roofline is
//   max(FLOPs / peak[dtype], bytes moved / memory bandwidth) + launch overhead,
// with no efficiency factor: a lower bound a real kernel approaches (docs/gpu_model.md,
// "Against measured times", says how far off it is).
#pragma once

#include <optional>
#include <string>

#include "models/platform/gpu_spec.h"
#include "models/workload/workload.h"

namespace memsim {

// The peak for an operator's dtype: unknown counts as fp32 (the slowest arithmetic: no
// guess that a kernel used tensor cores). nullopt when the GPU lacks the dtype.
std::optional<double> peak_flops(const GpuSpec& gpu, Dtype dtype);

// The roofline time of one operator, in ms. Throws InputError when the GPU has no peak
// for the dtype (naming `what`).
double roofline_ms(const GpuSpec& gpu, double flops, double bytes_moved, Dtype dtype, const std::string& what);

// workload.costs: device. Sets every op's cost_ms to its roofline time. An op with
// neither FLOPs nor bytes (a view, a reshape: no kernel runs) costs 0 ms; a workload in
// which no op has either (its source recorded neither) is refused, naming its source
// (`where` prefixes every message: "scenario.yaml: workload.costs").
void apply_device_costs(Workload& w, const GpuSpec& gpu, const std::string& where);

}  // namespace memsim
