// A key that shapes a profile or a synthetic model, set on a DTR log or a torch snapshot
// workload: an error that says why, never silently ignored.
#include <catch2/catch.hpp>

#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

namespace {

std::string error_of_parse(const std::string& yaml, const std::vector<std::string>& sets) {
    try {
        (void)parse_scenario(yaml, "t.yaml", sets);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

const char* kLog = "name: t\nworkload: {dtr_log: examples/traced/resnet18_b2.log}\npolicy: {allocator: pool}\n";

}  // namespace

TEST_CASE("scenario error: workload.batch on a DTR log says why") {
    CHECK_THAT(error_of_parse(kLog, {"workload.batch=8"}),
               Catch::Contains("workload.batch") &&
                   Catch::Contains("does not apply to a DTR log: it records one iteration at the batch and sizes it ran "
                                   "with; trace again with `memsim trace --batch N` for another batch (workload.batch is "
                                   "for profile folders and synthetic models)"));
    CHECK_THAT(error_of_parse(kLog, {"workload.layers=4"}),
               Catch::Contains("workload.layers") && Catch::Contains("does not apply to a DTR log"));
}

TEST_CASE("scenario: a DTR log replacing a profile drops the profile's batch without an error") {
    const std::string profile = "name: t\nworkload: {profile: examples/mlp, batch: 4}\npolicy: {allocator: pool}\n";
    CHECK(error_of_parse(profile, {"workload.dtr_log=examples/traced/resnet18_b2.log"}).empty());
    CHECK(error_of_parse(kLog, {}).empty());
}
