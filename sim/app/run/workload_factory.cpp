#include "sim/app/run/workload_factory.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/platform/gpu_model.h"
#include "models/workload/example_mlp.h"
#include "models/workload/input_error.h"
#include "models/workload/dtr_log.h"
#include "models/workload/mnn_profile.h"
#include "models/workload/synthetic.h"
#include "models/workload/torch_snapshot.h"
#include "models/workload/workload_limits.h"

namespace memsim {

namespace {

Workload synthetic(const Scenario& s) {
    const auto& p = s.workload.synthetic_params;
    auto param = [&](const char* key, double fallback) {
        auto it = p.find(key);
        return it == p.end() ? fallback : it->second;
    };
    if (s.workload.synthetic != "gpt" && !s.workload.synthetic_words.empty())
        throw InputError(fmt::format("{}: workload.{}: only the gpt workload takes it", s.file, s.workload.synthetic_words.begin()->first));
    if (s.workload.synthetic == "mlp") {
        const std::vector<std::string> known = {"batch", "layers", "width", "input", "classes"};
        for (const auto& [key, value] : p) {
            if (std::find(known.begin(), known.end(), key) == known.end())
                throw InputError(fmt::format("{}: workload.{}: unknown parameter of the mlp workload (known: {})", s.file, key,
                                             fmt::join(known, ", ")));
            if (value < 1 || value != static_cast<double>(static_cast<int>(value)))
                throw InputError(fmt::format("{}: workload.{}: {} is not an integer >= 1", s.file, key, value));
        }
        MlpShape shape;
        shape.batch = static_cast<int>(param("batch", shape.batch));
        shape.layers = static_cast<int>(param("layers", shape.layers));
        shape.hidden = static_cast<int>(param("width", shape.hidden));
        shape.input = static_cast<int>(param("input", shape.input));
        shape.classes = static_cast<int>(param("classes", shape.classes));
        return make_example_mlp(shape);
    }
    try {
        return make_synthetic(s.workload.synthetic, SyntheticParams{p, s.workload.synthetic_words});
    } catch (const InputError& e) {
        // The generators' table does not hold mlp (built here): an unknown kind names it too.
        const std::vector<std::string> kinds = synthetic_kinds();
        const bool known = std::find(kinds.begin(), kinds.end(), s.workload.synthetic) != kinds.end();
        throw InputError(fmt::format("{}: workload.synthetic: {}{}", s.file, e.what(), known ? "" : " (also: mlp)"));
    }
}

}  // namespace

Workload load_workload(const Scenario& s) {
    Workload w;
    if (!s.workload.profile.empty()) w = load_mnn_profile(s.workload.profile, s.workload.batch, s.workload.forward_end,
                                                         s.workload.costs == "linear_fit" ? CostModel::LinearFit : CostModel::Measured);
    else if (!s.workload.synthetic.empty()) w = synthetic(s);
    else if (!s.workload.torch_snapshot.empty()) w = load_torch_snapshot(s.workload.torch_snapshot).workload;
    else w = load_dtr_log(s.workload.dtr_log);
    if (s.workload.forward_end && s.workload.profile.empty()) {
        if (*s.workload.forward_end < 1 || *s.workload.forward_end > static_cast<int>(w.ops.size()))
            throw InputError(fmt::format("{}: workload.forward_end: {} out of range [1, {}]", s.file, *s.workload.forward_end,
                                         w.ops.size()));
        w.forward_end = *s.workload.forward_end;
        w.forward_end_rule = "given by the scenario";
    }
    if (s.workload.synthetic == "gpt" && s.workload.costs != "device")
        throw InputError(fmt::format("{}: workload.costs: the gpt workload records no operator times; set workload.costs: device "
                                     "and a platform.gpu preset to time it (docs/gpu_model.md)", s.file));
    if (s.workload.costs == "device") {
        const std::string where = fmt::format("{}: workload.costs", s.file);
        if (!s.platform.gpu_model)
            throw InputError(fmt::format("{}: device needs a device model: platform.gpu.preset (one of {}) or "
                                         "platform.gpu.peak_flops, memory_bandwidth and launch_overhead (docs/gpu_model.md)",
                                         where, fmt::join(gpu_preset_names(), ", ")));
        if (s.platform.gpu_speed_scale != 1.0)
            throw InputError(fmt::format("{}: device times operators on platform.gpu's device model; platform.gpu.speed_scale "
                                         "({:g}) scales recorded times: drop one of them",
                                         where, s.platform.gpu_speed_scale));
        apply_device_costs(w, *s.platform.gpu_model, where);
    }
    check_workload_limits(w);
    return w;
}

}  // namespace memsim
