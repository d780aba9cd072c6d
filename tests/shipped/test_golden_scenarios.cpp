// Every shipped scenario, run as shipped with events on, gives exactly the pinned
// summary.json and events.csv (tests/golden/scenarios/<name>/). The run starts in an
// empty folder, so relative paths resolve as they would for a user anywhere, and the
// outputs hold no path of this checkout. The scenarios on ../shared: tests/shared/.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>

#include "golden_support.h"
#include "shipped_support.h"

using namespace memsim;
namespace fs = std::filesystem;

TEST_CASE("golden: every scenario on the project's own workloads gives its pinned summary.json and events.csv") {
    test::check_scenario_goldens(false);
}

TEST_CASE("golden: every shipped scenario has a golden folder and every golden folder a scenario") {
    std::set<std::string> scenarios, goldens;
    for (const fs::path& f : test::yaml_files_in(fs::path(MEMSIM_SOURCE_DIR) / "scenarios")) scenarios.insert(f.stem().string());
    for (const auto& e : fs::directory_iterator(test::golden_path("scenarios"))) goldens.insert(e.path().filename().string());
    CHECK(scenarios == goldens);
    CHECK(scenarios.size() == 19);  // example on the example MLP; gpt3_a100 on the synthetic GPT; mobilenetv2_b4,
                                    // prefetch_timing and swap_vs_recompute on ../shared; three on the traced
                                    // MobileNetV2 log, two on the traced resnet18 log, one on the traced GPT log; the
                                    // four node studies of docs/tiers.md and its platform-file node on the traced
                                    // MobileNetV2 log; the three data-parallel studies of docs/parallel.md on the
                                    // synthetic GPT
}
