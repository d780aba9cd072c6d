// memsim find's --range and the values it runs: units read as scenarios read them,
// integer keys when both ends are plain integers, values written back with units to 6
// significant digits (so that what is printed is what ran).
#include <catch2/catch.hpp>

#include "models/workload/input_error.h"
#include "sim/app/find/find_run.h"

using namespace memsim;

TEST_CASE("find range: rates, sizes, times and plain numbers are read and a key is integer when both ends are integers") {
    std::string unit;
    SearchAxis axis = parse_find_range("10MB/s..10GB/s", unit);
    CHECK(axis.lo == 1e7);
    CHECK(axis.hi == 1e10);
    CHECK(axis.log);  // 1000x
    CHECK_FALSE(axis.integer);
    CHECK(unit == "B/s");
    axis = parse_find_range("1..64", unit);
    CHECK(axis.integer);
    CHECK(axis.log);
    CHECK(unit.empty());
    axis = parse_find_range("0.3..1.0", unit);
    CHECK_FALSE(axis.integer);
    CHECK_FALSE(axis.log);  // 3.3x
    axis = parse_find_range("64MiB .. 1GiB", unit);
    CHECK(axis.lo == 67108864);
    CHECK(axis.hi == 1073741824);
    CHECK(unit == "B");
    axis = parse_find_range("1ms..2s", unit);
    CHECK(axis.hi == 2000);
    CHECK(unit == "ms");
    CHECK_THROWS_AS(parse_find_range("2..1", unit), InputError);
    CHECK_THROWS_AS(parse_find_range("1MB..2ms", unit), InputError);
    CHECK_THROWS_AS(parse_find_range("..5", unit), InputError);
}

TEST_CASE("find range: values are written with units to 6 significant digits") {
    CHECK(find_value_text(316227766.01683795, "B/s", false) == "316.228MB/s");
    CHECK(find_value_text(1.5e9, "B/s", false) == "1.5GB/s");
    CHECK(find_value_text(999.5, "B/s", false) == "999.5B/s");
    CHECK(find_value_text(12345.6, "B", false) == "12346B");
    CHECK(find_value_text(2.5012345, "", false) == "2.50123");
    CHECK(find_value_text(37.0, "", true) == "37");
    CHECK(find_value_text(0.125, "ms", false) == "0.125ms");
}
