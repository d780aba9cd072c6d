#include <catch2/catch.hpp>

#include "sim/scenario/units.h"

using namespace memsim;

TEST_CASE("sizes with decimal and binary units") {
    CHECK(parse_bytes("512") == 512);
    CHECK(parse_bytes("64B") == 64);
    CHECK(parse_bytes("1.5KB") == 1500);
    CHECK(parse_bytes("2 MiB") == 2097152);
    CHECK(parse_bytes("1GB") == 1000000000ULL);
    CHECK(parse_bytes("3GiB") == 3221225472ULL);
    CHECK_THROWS_WITH(parse_bytes("12 bananas"), Catch::Contains("unknown size unit 'bananas'"));
    CHECK_THROWS_WITH(parse_bytes("0.5B"), Catch::Contains("whole number of bytes"));
    CHECK_THROWS_WITH(parse_bytes("-3MB"), Catch::Contains(">= 0"));
    CHECK_THROWS(parse_bytes("MB"));
}

TEST_CASE("rates: per second and bytes per duration") {
    CHECK(parse_rate_bytes_per_s("23.4MB/s") == Approx(23.4e6));
    CHECK(parse_rate_bytes_per_s("1GiB/s") == Approx(1073741824.0));
    CHECK(parse_rate_bytes_per_s("104094472B/4.452s") == Approx(104094472.0 / 4.452).epsilon(1e-15));
    CHECK(parse_rate_bytes_per_s("104094472B/4452ms") == Approx(104094472.0 / 4.452).epsilon(1e-15));
    CHECK(parse_rate_bytes_per_s("5MB/ms") == Approx(5e9));
    CHECK_THROWS_WITH(parse_rate_bytes_per_s("23MB"), Catch::Contains("not a rate"));
    CHECK_THROWS_WITH(parse_rate_bytes_per_s("23MB/fortnight"), Catch::Contains("unknown time unit"));
    CHECK_THROWS_WITH(parse_rate_bytes_per_s("0MB/s"), Catch::Contains("> 0"));
}

TEST_CASE("times") {
    CHECK(parse_time_ms("3ms") == 3.0);
    CHECK(parse_time_ms("2s") == 2000.0);
    CHECK(parse_time_ms("12us") == Approx(0.012));
    CHECK(parse_time_ms("1.5 min") == 90000.0);
    CHECK_THROWS_WITH(parse_time_ms("3"), Catch::Contains("missing time unit"));
}
