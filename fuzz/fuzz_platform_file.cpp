// libFuzzer target: a platform file (platform.file, docs/tiers.md) through memsim's reader,
// which checks it before SimGrid sees it. A file the reader accepts must come back the
// same from memsim's own copy of it (the text SimGrid is given): the copy is read again
// and must give the same node and the same copy, else the target aborts (a finding).
#include <cstdlib>
#include <iostream>

#include "fuzz_support.h"
#include "models/workload/input_error.h"
#include "sim/scenario/platform_xml.h"

namespace {

bool same(const memsim::DiskSpec& a, const memsim::DiskSpec& b) {
    return a.read_bytes_per_s == b.read_bytes_per_s && a.write_bytes_per_s == b.write_bytes_per_s &&
           a.read_latency_ms == b.read_latency_ms && a.write_latency_ms == b.write_latency_ms;
}

bool same(const std::vector<memsim::DiskSpec>& a, const std::vector<memsim::DiskSpec>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto dir = memsim::fuzz::scratch_dir();
    const std::string file = memsim::fuzz::write_input(dir / "platform.xml", memsim::fuzz::as_text(data, size));
    memsim::PlatformXml first;
    try {
        first = memsim::read_platform_xml(file);
    } catch (const memsim::InputError&) {
        return 0;
    }
    const std::string copy = memsim::fuzz::write_input(dir / "copy.xml", first.simgrid_text);
    try {
        const memsim::PlatformXml again = memsim::read_platform_xml(copy);
        if (again.gpus == first.gpus && same(again.routes, first.routes) && same(again.disks, first.disks) &&
            again.simgrid_text == first.simgrid_text)
            return 0;
        std::cerr << "memsim's copy of an accepted platform file reads differently\n";
    } catch (const memsim::InputError& e) {
        std::cerr << "memsim's copy of an accepted platform file is refused: " << e.what() << "\n";
    }
    std::abort();
}
