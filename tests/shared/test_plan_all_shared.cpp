// `memsim plan --strategy all` runs each distinct algorithm once: on a profile too large for
// TFLite's own network (Squeezenet, 1085 records) `mincostflow` would run
// mincostflow_fast, so only the mincostflow_fast row runs and a note says so.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "file_support.h"

TEST_CASE("shared: plan --strategy all runs mincostflow_fast once on Squeezenet", "[shared]") {
    const memsim::test::Outcome o =
        memsim::test::run_memsim("plan ../shared/profiles/Squeezenet --batch 4 --strategy all --json");
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j.at("records") == 1085);
    int fast = 0, tflite = 0;
    for (const auto& row : j.at("strategies")) {
        fast += row.at("strategy") == "mincostflow_fast";
        tflite += row.at("strategy") == "mincostflow";
    }
    CHECK(fast == 1);
    CHECK(tflite == 0);
    REQUIRE(j.at("notes").size() == 1);
    CHECK(j.at("notes")[0] == "mincostflow: not run separately: on these 1085 records it is mincostflow_fast (TFLite's "
                              "network needs <= 512 records in order of first_op)");
}
