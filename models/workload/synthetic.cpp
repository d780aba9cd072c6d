#include "models/workload/synthetic.h"

#include <cmath>

#include <fmt/format.h>

#include "models/workload/input_error.h"
#include "models/workload/workload_limits.h"

namespace memsim {

Workload make_uniform_linear(int n) {
    if (n < 1) throw InputError(fmt::format("synthetic uniform_linear: n must be >= 1, got {}", n));
    Workload w;
    w.name = fmt::format("uniform_linear_{}", n);
    w.source = fmt::format("synthetic:uniform_linear:n={}", n);
    w.batch = 1;
    auto add_op = [&](const std::string& name, std::vector<TensorId> inputs) {
        const int op = static_cast<int>(w.ops.size());
        const auto t = static_cast<TensorId>(w.tensors.size());
        w.tensors.push_back(Tensor{name, 1, op, false, false, -1});
        w.ops.push_back(Op{name, 1.0, std::move(inputs), {t}, {}, {}, {}});
        return t;
    };
    std::vector<TensorId> f(n), b(n);
    for (int i = 0; i < n; ++i) f[i] = add_op(fmt::format("f{}", i), i == 0 ? std::vector<TensorId>{} : std::vector<TensorId>{f[i - 1]});
    w.forward_end = n;
    w.forward_end_rule = "synthetic: after f_{n-1}";
    w.ops.back().release.push_back(f[n - 1]);
    b[n - 1] = add_op(fmt::format("b{}", n - 1), {});
    for (int k = n - 2; k >= 0; --k) {
        // Between b_{k+1} and b_k: release f_k; then after b_k runs, release b_{k+1}.
        w.ops.back().release.push_back(f[k]);
        std::vector<TensorId> inputs;
        if (k > 0) inputs.push_back(f[k - 1]);
        inputs.push_back(b[k + 1]);
        b[k] = add_op(fmt::format("b{}", k), inputs);
        w.ops.back().release.push_back(b[k + 1]);
    }
    return w;
}

Workload make_synthetic(const std::string& kind, const std::map<std::string, double>& params) {
    if (kind == "uniform_linear") {
        for (const auto& [key, value] : params)
            if (key != "n")
                throw InputError(fmt::format("synthetic uniform_linear: unknown parameter '{}' (known: n)", key));
        const auto it = params.find("n");
        if (it == params.end()) throw InputError("synthetic uniform_linear: parameter 'n' is required");
        const double n = it->second;
        if (!(n >= 1) || n != std::floor(n) || n > 1e7)
            throw InputError(fmt::format("synthetic uniform_linear: n must be a whole number in [1, 1e7], got {}", n));
        check_workload_fits_memory(2 * static_cast<std::size_t>(n), 2 * static_cast<std::size_t>(n), "synthetic uniform_linear");
        return make_uniform_linear(static_cast<int>(n));
    }
    throw InputError(fmt::format("synthetic workload: unknown kind '{}' (known: uniform_linear)", kind));
}

}  // namespace memsim
