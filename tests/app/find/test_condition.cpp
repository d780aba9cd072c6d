// The conditions of memsim find: comparisons with units, and/or precedence, stopped runs,
// unknown fields and unreadable text.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "models/workload/input_error.h"
#include "app/find/condition.h"

using memsim::Condition;
using memsim::InputError;

namespace {

nlohmann::json summary(const std::string& status, std::uint64_t peak, double time_ms) {
    return {{"status", status}, {"message", ""}, {"peak_bytes", peak}, {"time_ms", time_ms}, {"allocator", "os"},
            {"disk", {{"bandwidth", "23.4MB/s"}}}};
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
    CHECK(Condition::parse("disk.bandwidth >= 23.4MB/s", "--until").holds(summary("ok", 1, 1)));
    CHECK_FALSE(Condition::parse("disk.bandwidth > 23.4MB/s", "--until").holds(summary("ok", 1, 1)));
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
    const Condition c = Condition::parse("peak_byte <= 1GiB", "--while");
    CHECK_THROWS_WITH(c.holds(summary("ok", 1, 1)),
                      Catch::Contains("--while: the summaries have no field 'peak_byte'; did you mean 'peak_bytes'?"));
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
