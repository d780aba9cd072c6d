// libFuzzer target: the merge reader: one point's summary.json read back and turned into
// a results.csv row, as `memsim merge` does.
#include "fuzz_support.h"
#include "sim/report/point_results.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path sweep = memsim::fuzz::scratch_dir() / "sweep";
    memsim::SweepPlan plan;
    plan.parameters.push_back({"policy.swap.mode", {"sync"}});
    plan.points.push_back({1, {"sync"}});
    memsim::fuzz::write_input(std::filesystem::path(memsim::point_dir(sweep.string(), plan.points[0])) / "summary.json",
                              memsim::fuzz::as_text(data, size));
    const std::vector<memsim::PointResult> results = memsim::read_point_results(sweep.string(), plan);
    (void)memsim::results_csv(plan, results);
    return 0;
}
