// Every shipped scenario, run as shipped with events on, gives exactly the pinned
// summary.json and events.csv (tests/golden/scenarios/<name>/). The run starts in an
// empty folder, so relative paths resolve as they would for a user anywhere, and the
// outputs hold no path of this checkout.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "file_support.h"
#include "golden_support.h"
#include "sim/scenario/scenario.h"

using namespace memsim;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shipped_scenarios() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(fs::path(MEMSIM_SOURCE_DIR) / "scenarios"))
        if (e.path().extension() == ".yaml") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

bool needs_shared(const Scenario& s) {
    return s.workload.profile.find("../shared") != std::string::npos || s.workload.dtr_log.find("../shared") != std::string::npos;
}

// Runs the scenario from an empty working directory and returns where it wrote.
fs::path run_as_shipped(const fs::path& scenario, const Scenario& s) {
    const fs::path cwd = test::fresh_dir("golden_" + scenario.stem().string());
    const test::Outcome o = test::run_memsim_in(cwd, "run " + scenario.string() + " -q --set output.events=true");
    INFO(o.err);
    REQUIRE(o.code == 0);
    return cwd / s.output.dir;
}

void check_scenarios(bool shared) {
    int checked = 0;
    for (const fs::path& f : shipped_scenarios()) {
        const Scenario s = load_scenario(f.string());
        if (needs_shared(s) != shared) continue;
        INFO(f.filename().string());
        const fs::path out = run_as_shipped(f, s);
        const std::string golden = "scenarios/" + f.stem().string();
        test::check_golden(golden + "/summary.json", test::read_file(out / "summary.json"));
        // A shared profile's event log is a transcript of that profile (its operator names
        // and sizes): the repository pins its digest, never the data itself.
        if (shared)
            test::check_golden(golden + "/events.csv.sha256", test::sha256_of(out / "events.csv") + "\n");
        else
            test::check_golden(golden + "/events.csv", test::read_file(out / "events.csv"));
        ++checked;
    }
    CHECK(checked > 0);
}

}  // namespace

TEST_CASE("golden: every scenario on the project's own workloads gives its pinned summary.json and events.csv") {
    check_scenarios(false);
}

TEST_CASE("shared: golden: every scenario on the shared profiles gives its pinned summary.json and events.csv digest") {
    check_scenarios(true);
}

TEST_CASE("golden: every shipped scenario has a golden folder and every golden folder a scenario") {
    std::set<std::string> scenarios, goldens;
    for (const fs::path& f : shipped_scenarios()) scenarios.insert(f.stem().string());
    for (const auto& e : fs::directory_iterator(test::golden_path("scenarios"))) goldens.insert(e.path().filename().string());
    CHECK(scenarios == goldens);
    CHECK(scenarios.size() == 6);
}
