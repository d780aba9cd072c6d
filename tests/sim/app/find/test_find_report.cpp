// find's answer line when points could not run (issue: hostile input, fourth round, class
// 1): a point that crashed says nothing about the condition, so no answer among the
// points that ran is "unknown", not "none".
#include <catch2/catch.hpp>

#include "sim/app/find/find_report.h"

using namespace memsim;

namespace {

FindRequest request() {
    FindRequest r;
    r.key = "workload.n";
    r.range = "1..3";
    r.condition = Condition::parse("peak_bytes <= 1", "--until");
    return r;
}

FindOutcome outcome_with_error() {
    FindOutcome o;
    o.axis.lo = 1;
    o.axis.hi = 3;
    o.axis.integer = true;
    o.search.points = {{1, false, 0}, {2, false, 0}, {3, false, 0}};
    o.points = {{"1", 1, false, "error", nullptr}, {"2", 2, false, "ok", {{"peak_bytes", 2}, {"time_ms", 4.0}}},
                {"3", 3, false, "ok", {{"peak_bytes", 3}, {"time_ms", 6.0}}}};
    return o;
}

}  // namespace

TEST_CASE("find crash: no answer among the points that ran while a point crashed is unknown, not none") {
    const std::string report = find_report(request(), outcome_with_error(), 1,
                                           "workload.n=1: killed by signal 11 (SIGSEGV); the files it left are partial");
    CHECK_THAT(report, Catch::Contains("answer: unknown: no value that ran in 1..3 satisfies 'peak_bytes <= 1', and 1 could "
                                       "not run (the answer may be among them; the first: workload.n=1: killed by signal "
                                       "11 (SIGSEGV); the files it left are partial)\n"));
    CHECK_THAT(report, !Catch::Contains("answer: none"));
}

TEST_CASE("find crash: with every point run and none holding, the answer is none") {
    FindOutcome o = outcome_with_error();
    o.points[0] = {"1", 1, false, "ok", {{"peak_bytes", 2}, {"time_ms", 2.0}}};
    const std::string report = find_report(request(), o, 0, "");
    CHECK_THAT(report, Catch::Contains("answer: none: no value evaluated in 1..3 satisfies 'peak_bytes <= 1'\n"));
}
