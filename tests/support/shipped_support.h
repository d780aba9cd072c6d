// The shipped scenarios and platform files, for the tests of shipped/ and their halves
// in shared/ (the scenarios on ../shared profiles): list them, run them as shipped, and
// compare their outputs with the golden files.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "file_support.h"
#include "golden_support.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/sweep_plan.h"

namespace memsim::test {

namespace fs = std::filesystem;

// The .yaml files of a folder, sorted.
inline std::vector<fs::path> yaml_files_in(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".yaml") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

inline bool needs_shared(const Scenario& s) {
    return s.workload.profile.find("../shared") != std::string::npos || s.workload.dtr_log.find("../shared") != std::string::npos;
}

// Every point of every shipped scenario on the shared profiles (shared) or on the
// project's own workloads (!shared), its base and each point of its sweep: section,
// passes the checks a run makes before it simulates (the scenario parses, the policy
// fits together). The golden tests run the base points; this covers the sweep points
// `memsim sweep` would run. Returns how many points were checked.
inline int check_shipped_points(bool shared) {
    int points = 0;
    for (const fs::path& f : yaml_files_in("scenarios")) {
        const Scenario s = load_scenario(f.string());
        if (needs_shared(s) != shared) continue;
        INFO(f.string());
        CHECK_NOTHROW(validate_policy(s));
        ++points;
        if (!s.resolved["sweep"]) continue;
        const SweepPlan plan = plan_sweep(f.string(), {});
        for (const SweepPoint& point : plan.points) {
            INFO("point " << point.index);
            CHECK_NOTHROW(validate_policy(load_scenario(f.string(), point_overrides(plan, point))));
            ++points;
        }
    }
    return points;
}

// Runs the scenario from an empty working directory and returns where it wrote.
inline fs::path run_as_shipped(const fs::path& scenario, const Scenario& s) {
    const fs::path cwd = fresh_dir("golden_" + scenario.stem().string());
    const Outcome o = run_memsim_in(cwd, "run " + scenario.string() + " -q --set output.events=true");
    INFO(o.err);
    REQUIRE(o.code == 0);
    return cwd / s.output.dir;
}

inline void check_scenario_goldens(bool shared) {
    int checked = 0;
    for (const fs::path& f : yaml_files_in(fs::path(MEMSIM_SOURCE_DIR) / "scenarios")) {
        const Scenario s = load_scenario(f.string());
        if (needs_shared(s) != shared) continue;
        INFO(f.filename().string());
        const fs::path out = run_as_shipped(f, s);
        const std::string golden = "scenarios/" + f.stem().string();
        check_golden(golden + "/summary.json", read_file(out / "summary.json"));
        // A shared profile's event log is a transcript of that profile (its operator names
        // and sizes): the repository pins its digest, never the data itself.
        if (shared)
            check_golden(golden + "/events.csv.sha256", sha256_of(out / "events.csv") + "\n");
        else
            check_golden(golden + "/events.csv", read_file(out / "events.csv"));
        ++checked;
    }
    CHECK(checked > 0);
}

}  // namespace memsim::test
