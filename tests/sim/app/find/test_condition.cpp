// The conditions of memsim find: comparisons with units, and/or precedence, stopped runs,
// unknown fields and unreadable text.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "models/workload/input_error.h"
#include "sim/app/find/condition.h"

using memsim::Condition;
using memsim::InputError;

namespace {

nlohmann::json summary(const std::string& status, std::uint64_t peak, double time_ms) {
    return {{"status", status},
            {"message", ""},
            {"peak_bytes", peak},
            {"time_ms", time_ms},
            {"allocator", "os"},
            {"details", {{"forward_ms", 3.5}}},
            {"scenario_resolved", {{"platform", {{"disk", {{"bandwidth", "23.4MB/s"}}}}}}}};
}

}  // namespace

TEST_CASE("find condition: sizes with units compare in bytes, and binds tighter than or") {
    const Condition c = Condition::parse("status == ok and peak_bytes <= 300MiB", "--while");
    CHECK(c.holds(summary("ok", 314572800, 1)));   // 300 * 1048576
    CHECK_FALSE(c.holds(summary("ok", 314572801, 1)));
    CHECK(c.fields() == std::vector<std::string>{"status", "peak_bytes"});

    const Condition t = Condition::parse("time_ms < 2s", "--until");
    CHECK(t.holds(summary("ok", 1, 1999.5)));
    CHECK_FALSE(t.holds(summary("ok", 1, 2000)));

    // a or (b and c): true through a alone; false when a fails and only b holds.
    const Condition p = Condition::parse("time_ms <= 1 or peak_bytes == 5 and allocator == pool", "--until");
    CHECK(p.holds(summary("ok", 7, 1)));
    CHECK_FALSE(p.holds(summary("ok", 5, 2)));
    const Condition q = Condition::parse("(time_ms <= 1 or peak_bytes == 5) and allocator == os", "--until");
    CHECK(q.holds(summary("ok", 5, 2)));
    CHECK(Condition::parse("allocator != pool", "--until").holds(summary("ok", 5, 2)));
}

TEST_CASE("find condition: a nested field written as a quantity, and a rate") {
    CHECK(Condition::parse("scenario_resolved.platform.disk.bandwidth >= 23.4MB/s", "--until").holds(summary("ok", 1, 1)));
    CHECK_FALSE(Condition::parse("scenario_resolved.platform.disk.bandwidth > 23.4MB/s", "--until").holds(summary("ok", 1, 1)));
    CHECK(Condition::parse("details.forward_ms == 3.5", "--until").holds(summary("ok", 1, 1)));
}

TEST_CASE("find condition: a run that stopped fails every comparison but those on its status") {
    const nlohmann::json oom = summary("oom", 10, 5);
    CHECK_FALSE(Condition::parse("peak_bytes <= 1GiB", "--while").holds(oom));
    CHECK(Condition::parse("status == oom", "--while").holds(oom));
    CHECK(Condition::parse("status != ok or time_ms <= 0", "--while").holds(oom));
    // A point that could not run has no summary at all.
    CHECK_FALSE(Condition::parse("time_ms >= 0", "--while").holds(nullptr));
}

TEST_CASE("find condition: unknown fields and unreadable text are errors naming the option") {
    // A field summary.json never has is refused when the condition is read, before any point runs.
    CHECK_THROWS_WITH(Condition::parse("peak_byte <= 1GiB", "--while"),
                      Catch::Contains("--while: 'peak_byte <= 1GiB': summary.json has no field 'peak_byte'; did you mean "
                                      "'peak_bytes'?"));
    CHECK_THROWS_WITH(Condition::parse("status == ok and (disk.bandwidth > 1MB/s)", "--while"),
                      Catch::Contains("no field 'disk'"));
    // Below details, the fields depend on the run: checked against each point's summary.
    const Condition c = Condition::parse("details.forward_msx <= 1", "--while");
    CHECK_THROWS_WITH(c.holds(summary("ok", 1, 1)), Catch::Contains("--while: the summaries have no field 'details.forward_msx'"));
    CHECK_THROWS_WITH(Condition::parse("", "--until"), Catch::Contains("--until: '': empty condition"));
    CHECK_THROWS_WITH(Condition::parse("time_ms <= ", "--until"), Catch::Contains("ends where a value was expected"));
    CHECK_THROWS_WITH(Condition::parse("time_ms => 3", "--until"), Catch::Contains("unknown operator '=>'"));
    CHECK_THROWS_WITH(Condition::parse("status < ok", "--until"),
                      Catch::Contains("'ok' is not a number or a quantity with units, so it can only be compared with == or !="));
    CHECK_THROWS_WITH(Condition::parse("(time_ms <= 3", "--until"), Catch::Contains("ends where ')' was expected"));
    CHECK_THROWS_WITH(Condition::parse("time_ms <= 3 time_ms", "--until"), Catch::Contains("unexpected 'time_ms'"));
    CHECK_THROWS_WITH(Condition::parse("allocator <= 3", "--until").holds(summary("ok", 1, 1)),
                      Catch::Contains("field 'allocator' is \"os\", not a number"));
    CHECK_THROWS_AS(Condition::parse("and == 3", "--until"), InputError);
}

TEST_CASE("find condition: nesting is bounded, long chains are flat, and values must be finite (issue 31)") {
    // 60,000 parentheses overflowed the stack (exit 139); the limit is 32 levels.
    const std::string deep = std::string(60000, '(') + "time_ms <= 1" + std::string(60000, ')');
    CHECK_THROWS_WITH(Condition::parse(deep, "--until"),
                      Catch::Contains("parentheses nested deeper than 32 levels") && Catch::Contains("(120012 characters)"));
    const std::string limit = std::string(32, '(') + "time_ms <= 1" + std::string(32, ')');
    CHECK(Condition::parse(limit, "--until").holds(summary("ok", 1, 1)));
    CHECK_THROWS_WITH(Condition::parse("(" + limit + ")", "--until"), Catch::Contains("deeper than 32 levels"));
    // 20,000 comparisons joined by `and`, then by `or`: one node each, evaluated in a loop.
    std::string chain = "time_ms <= 2";
    for (int i = 1; i < 20000; ++i) chain += " and peak_bytes <= 5";
    const Condition all = Condition::parse(chain, "--until");
    CHECK(all.holds(summary("ok", 5, 2)));
    CHECK_FALSE(all.holds(summary("ok", 6, 2)));
    CHECK(all.fields().size() == 20000);
    std::string either = "time_ms <= 1";
    for (int i = 1; i < 20000; ++i) either += " or peak_bytes == 7";
    CHECK(Condition::parse(either, "--until").holds(summary("ok", 7, 2)));
    CHECK_FALSE(Condition::parse(either, "--until").holds(summary("ok", 8, 2)));
    // nan compares false with everything, inf is no value a summary holds.
    for (const char* value : {"nan", "inf", "-inf", "NaN"}) {
        INFO(value);
        CHECK_THROWS_WITH(Condition::parse(std::string("overhead <= ") + value, "--until"),
                          Catch::Contains("is not a finite number"));
    }
}
