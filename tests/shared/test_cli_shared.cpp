// The memsim binary on a shared profile: run and info agree, and info gives the peer
// reference peaks.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "file_support.h"
#include "shared_data.h"

using nlohmann::json;
namespace fs = std::filesystem;

using namespace memsim::test;

TEST_CASE("shared: cli run on MobilenetV2 batch 4 agrees with info, exactly", "[shared]") {
    const Outcome info = run_memsim("info ../shared/profiles/MobilenetV2 --batch 4 --json");
    REQUIRE(info.code == 0);
    const json i = json::parse(info.out);
    const std::map<std::string, double> reference = peer_reference("MobilenetV2", 4);
    CHECK(i["oracle_peak_bytes"].get<double>() == reference.at("oracle_peak_bytes"));
    CHECK(i["pool_peak_bytes"].get<double>() == reference.at("pool_peak_bytes"));
    CHECK(i["forward_end"] == 1438);
    for (const std::string allocator : {"os", "pool"}) {
        const fs::path dir = fresh_dir("mb_" + allocator);
        const Outcome o = run_memsim("run scenarios/mobilenetv2_b4.yaml -q --set policy.allocator=" + allocator + " --out " + dir.string());
        REQUIRE(o.code == 0);
        const json s = json::parse(read_file(dir / "summary.json"));
        CHECK(s["peak_bytes"] == i[allocator == "os" ? "oracle_peak_bytes" : "pool_peak_bytes"]);
        CHECK(s["time_ms"].get<double>() == Approx(i["compute_ms"].get<double>()).epsilon(1e-12));
        CHECK(s["ops"] == 4304);
    }
}
