// Roles of an MNN profile's tensors: the weights the update writes (no operator releases
// them) are the parameters, counted by hand on the project's example MLP (the shared
// profiles: tests/shared/test_mnn_roles_shared.cpp).
#include <catch2/catch.hpp>

#include "models/workload/mnn_profile.h"

using namespace memsim;

namespace {

struct RoleTotals {
    int count = 0;
    std::uint64_t bytes = 0;
};

RoleTotals totals(const Workload& w, TensorRole role) {
    RoleTotals t;
    for (const Tensor& x : w.tensors)
        if (x.role == role) ++t.count, t.bytes += x.bytes;
    return t;
}

}  // namespace

TEST_CASE("mnn roles: the example MLP's weights and biases are its parameters") {
    const Workload w = load_mnn_profile("examples/mlp", 4);
    // 784x512 + 512, three of 512x512 + 512, 512x10 + 10: 1,195,018 float32 parameters in
    // 5 weights and 5 biases.
    const RoleTotals p = totals(w, TensorRole::parameter);
    CHECK(p.count == 10);
    CHECK(p.bytes == 4 * 1195018);
    CHECK(totals(w, TensorRole::activation).count > 0);
    CHECK(w.role_rule.rfind("mnn profile: parameters = tensors no operator releases", 0) == 0);
}
