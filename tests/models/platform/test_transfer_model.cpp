// TransferModel (models/platform/transfer_model.h): latency + bytes / bandwidth per
// direction, worked out by hand, and the form every caller relies on to the last bit.
#include <catch2/catch.hpp>

#include "models/platform/transfer_model.h"

using namespace memsim;

TEST_CASE("transfer model: latency plus bytes over the direction's bandwidth, n transfers pay n latencies") {
    // Reads at 100 B/ms with 2 ms latency, writes at 50 B/ms with 3 ms.
    const TransferModel disk(DiskSpec{100000, 50000, 2, 3});
    CHECK(disk.read_ms(1000) == 12.0);   // 2 + 1000 / 100
    CHECK(disk.write_ms(1000) == 23.0);  // 3 + 1000 / 50
    CHECK(disk.ms(false, 1000) == disk.read_ms(1000));
    CHECK(disk.ms(true, 1000) == disk.write_ms(1000));
    CHECK(disk.latency_ms(false) == 2.0);
    CHECK(disk.latency_ms(true) == 3.0);
    CHECK(disk.read_ms(0) == 2.0);
    CHECK(disk.write_ms(1000, 4) == 32.0);  // 4 x 3 + 1000 / 50
    // bytes x 1e3 / bandwidth, one rounding fewer than bytes x (1e3 / bandwidth): the
    // phone disk's 104094472 B in 4.452 s exactly.
    const TransferModel phone(DiskSpec{});
    CHECK(phone.read_ms(104094472) == 4452.0);
    CHECK(phone.write_ms(104094472) == 4452.0);
}
