#include "sim/workload_factory.h"

#include <fmt/format.h>

#include "models/workload/example_mlp.h"
#include "models/workload/input_error.h"
#include "models/workload/dtr_log.h"
#include "models/workload/mnn_profile.h"
#include "models/workload/synthetic.h"

namespace memsim {

namespace {

Workload synthetic(const Scenario& s) {
    const auto& p = s.workload.synthetic_params;
    auto param = [&](const char* key, double fallback) {
        auto it = p.find(key);
        return it == p.end() ? fallback : it->second;
    };
    if (s.workload.synthetic == "mlp") {
        MlpShape shape;
        shape.batch = static_cast<int>(param("batch", shape.batch));
        shape.layers = static_cast<int>(param("layers", shape.layers));
        shape.hidden = static_cast<int>(param("width", shape.hidden));
        return make_example_mlp(shape);
    }
    try {
        return make_synthetic(s.workload.synthetic, p);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: workload.synthetic: {} (known: mlp, uniform_linear)", s.file, e.what()));
    }
}

}  // namespace

Workload load_workload(const Scenario& s) {
    Workload w;
    if (!s.workload.profile.empty()) w = load_mnn_profile(s.workload.profile, s.workload.batch, s.workload.forward_end);
    else if (!s.workload.synthetic.empty()) w = synthetic(s);
    else w = load_dtr_log(s.workload.dtr_log);
    if (s.workload.forward_end && s.workload.profile.empty()) {
        if (*s.workload.forward_end < 1 || *s.workload.forward_end > static_cast<int>(w.ops.size()))
            throw InputError(fmt::format("{}: workload.forward_end: {} out of range [1, {}]", s.file, *s.workload.forward_end,
                                         w.ops.size()));
        w.forward_end = *s.workload.forward_end;
        w.forward_end_rule = "given by the scenario";
    }
    return w;
}

}  // namespace memsim
