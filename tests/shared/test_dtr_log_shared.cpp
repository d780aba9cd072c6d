// The six shared DTR logs against the published baseline table (../shared/dtr-logs/README.md).
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "models/alloc/os_allocator.h"
#include "models/workload/dtr_log.h"
#include "models/alloc/replay.h"
#include "file_support.h"
#include "shared_data.h"

using namespace memsim;
using namespace memsim::test;

namespace {

struct Published {
    const char* prefix;
    std::size_t operators;        // CALL + MUTATE + CONSTANT (the simulator counts constants as ops)
    std::uint64_t peak_bytes;
    std::uint64_t compute_ns;
    std::uint64_t constant_bytes;
};

const Published kPublishedCounts[] = {
    {"inceptionv4-64", 2307, 11245348984ULL, 636429561ULL, 239640948ULL},
    {"lstm-128", 8063, 5595127736ULL, 769458833ULL, 194424928ULL},
    {"transformer-10", 3154, 9864405000ULL, 276259118ULL, 263197248ULL},
    {"treelstm-6", 6959, 170173608ULL, 120490892ULL, 2000800ULL},
    {"tv_densenet121-84", 2925, 11020749360ULL, 355299140ULL, 82830040ULL},
    {"unroll_gan-512", 6820, 252677418ULL, 125451477ULL, 14876292ULL},
};

}  // namespace

TEST_CASE("DTR logs match the published operator count and compute and constants", "[shared]") {
    for (const Published& p : kPublishedCounts) {
        INFO(p.prefix);
        const DtrLog log = load_dtr_log_detailed(shared_dtr_log(p.prefix));
        const Workload& w = log.workload;
        const ConstantTotals constants = constant_totals(w);
        CHECK(w.op_count() + constants.count == p.operators);
        CHECK(static_cast<std::uint64_t>(std::llround(w.compute_ms() * 1e6)) == p.compute_ns);
        CHECK(constants.bytes == p.constant_bytes);
        OsAllocator os;
        const std::uint64_t peak = replay_peak(w, os);
        CHECK(peak == p.peak_bytes);  // constants resident from their CONSTANT line, as published
        CHECK(dtr_log_baseline_peak(log) == p.peak_bytes);
    }
}

TEST_CASE("memsim info --dtr-log prints the published baseline of every log", "[shared]") {
    for (const Published& p : kPublishedCounts) {
        INFO(p.prefix);
        const Outcome o = run_memsim("info --json --dtr-log " + shared_dtr_log(p.prefix));
        REQUIRE(o.code == 0);
        const nlohmann::json j = nlohmann::json::parse(o.out);
        CHECK(j["ops"].get<std::size_t>() + j["constants"].get<std::size_t>() == p.operators);
        CHECK(j["constant_bytes"] == p.constant_bytes);
        CHECK(j["baseline_peak_bytes"] == p.peak_bytes);
        CHECK(j["baseline_compute_ns"] == p.compute_ns);
    }
}
