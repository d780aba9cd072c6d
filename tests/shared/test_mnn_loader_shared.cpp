// The MNN loader's linear_fit cost model on a real profile.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <utility>

#include "models/workload/mnn_profile.h"
#include "shared_data.h"

using namespace memsim;

TEST_CASE("shared: linear_fit reproduces MobilenetV2's measured compute", "[shared]") {
    const std::string dir = memsim::test::shared_profile("MobilenetV2");
    // Measured (b2, b4, b8, b16) 1548.550 / 2488.364 / 4296.386 / 8014.835 ms, fitted 1584.861 / 2498.488 / 4326.153 / 7981.522.
    for (const auto& [b, tolerance] : {std::pair{2, 0.025}, {4, 0.01}, {8, 0.01}, {16, 0.01}}) {
        INFO("batch " << b);
        const double measured = load_mnn_profile(dir, b).compute_ms();
        const double fitted = load_mnn_profile(dir, b, std::nullopt, CostModel::LinearFit).compute_ms();
        CHECK(fitted == Approx(measured).epsilon(tolerance));
    }
    // Batch 50: sizes were profiled, times were not.
    const Workload w = load_mnn_profile(dir, 50, std::nullopt, CostModel::LinearFit);
    CHECK(w.forward_end == 1438);
    CHECK(w.compute_ms() > load_mnn_profile(dir, 16).compute_ms());
}
