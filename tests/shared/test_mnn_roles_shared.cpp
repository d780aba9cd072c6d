// Roles of the shared MNN profiles: the tensors no operator releases (the weights the
// update writes) are the parameters.
#include <catch2/catch.hpp>

#include "models/workload/mnn_profile.h"
#include "shared_data.h"

using namespace memsim;

namespace {

std::pair<int, std::uint64_t> parameters(const Workload& w) {
    std::pair<int, std::uint64_t> t{0, 0};
    for (const Tensor& x : w.tensors)
        if (x.role == TensorRole::parameter) ++t.first, t.second += x.bytes;
    return t;
}

}  // namespace

TEST_CASE("mnn roles: MobilenetV2 and Squeezenet parameters", "[shared]") {
    const auto mobilenet = parameters(load_mnn_profile(test::shared_profile("MobilenetV2"), 4));
    CHECK(mobilenet.first == 158);
    CHECK(mobilenet.second == 14024612);  // 3.5 M float32 parameters
    const auto squeezenet = parameters(load_mnn_profile(test::shared_profile("Squeezenet"), 4));
    CHECK(squeezenet.first == 52);
    CHECK(squeezenet.second == 2962216);
}
