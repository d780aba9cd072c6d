// How a sweep over platform.disk labels its values: a disk the shipped platform files
// have is named by its file (compiled in from configs/*.yaml, not read at run time), its
// rates in readable units worked out by hand below; a disk map that gives only some keys is
// labelled as the run reads it (the defaults: the phone's rate, no latency).
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include "file_support.h"
#include "shipped_support.h"
#include "sim/report/charts/value_labels.h"

using namespace memsim;

namespace {

std::vector<std::string> disk_labels(std::vector<std::string> values) {
    return value_labels({"platform.disk", std::move(values)});
}

}  // namespace

TEST_CASE("value labels: a disk of a shipped platform file is named by it") {
    // 104094472 B / 4.452 s = 23.38 MB/s; 315.22 MiB/s = 330.5 MB/s, 797.91 MiB/s = 836.7 MB/s;
    // 121.54 MiB/s = 127.4 MB/s, 263.05 MiB/s = 275.8 MB/s. A named disk shows no latency
    // under 1 ms (its file has it).
    CHECK(disk_labels({"{bandwidth: 104094472B/4.452s}", "{write_bandwidth: 315.22MiB/s, read_bandwidth: 797.91MiB/s}",
                       "{bandwidth: 3.2GB/s, read_latency: 12us, write_latency: 16us}", "{bandwidth: 25GB/s, latency: 10us}",
                       "{write_bandwidth: 121.54MiB/s, read_bandwidth: 263.05MiB/s, latency: 0ms}"}) ==
          std::vector<std::string>{"phone: 23.4 MB/s", "phone_samsung: write 331 MB/s, read 837 MB/s",
                                   "nvme_datacenter: 3.2 GB/s", "host_ram_pcie4: 25 GB/s",
                                   "phone_redmi: write 127 MB/s, read 276 MB/s"});
    // The same numbers in other units are the same disk; other numbers are no file's.
    CHECK(disk_labels({"{bandwidth: 25000MB/s, latency: 0.01ms}", "{bandwidth: 3.2GB/s, latency: 12us}",
                       "{bandwidth: 7MB/s, read_latency: 1ms, write_latency: 500us}", "{bandwidth: 1GB/s, latency: 2ms}"}) ==
          std::vector<std::string>{"host_ram_pcie4: 25 GB/s", "3.2 GB/s, latency 12 us",
                                   "7 MB/s, latency 1 ms read, 500 us write", "1 GB/s, latency 2 ms"});
}

TEST_CASE("value labels: every shipped platform file names its own disk") {
    int named = 0;
    for (const std::filesystem::path& file : test::yaml_files_in(std::filesystem::path(MEMSIM_SOURCE_DIR) / "configs")) {
        YAML::Emitter flow;
        flow << YAML::Flow << YAML::LoadFile(file.string())["disk"];
        const std::vector<std::string> labels = disk_labels({flow.c_str()});
        INFO(file.string() << ": " << flow.c_str());
        REQUIRE(labels.size() == 1);
        CHECK(labels[0].rfind(file.stem().string() + ": ", 0) == 0);
        ++named;
    }
    CHECK(named >= 5);  // the walk saw the files
}

TEST_CASE("value labels: a disk given in part shows the rates and latencies the run uses") {
    // Unset rates are the phone's 23.4 MB/s, unset latencies 0 (node_section.h's parse_disk).
    CHECK(disk_labels({"{latency: 3ms}", "{read_bandwidth: 1GB/s}"}) ==
          std::vector<std::string>{"23.4 MB/s, latency 3 ms", "write 23.4 MB/s, read 1 GB/s"});
    // A map with a key that is not a disk's, or a value that does not parse, is labelled by
    // the leaves that differ.
    CHECK(disk_labels({"{bandwidth: 1GB/s, tier: a}", "{bandwidth: 2GB/s, tier: a}"}) ==
          std::vector<std::string>{"bandwidth=1 GB/s", "bandwidth=2 GB/s"});
    CHECK(disk_labels({"{bandwidth: fast}", "{bandwidth: 2GB/s}"}) ==
          std::vector<std::string>{"bandwidth=fast", "bandwidth=2 GB/s"});
}
