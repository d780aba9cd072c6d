// Platform files for the tests of platform.file (docs/tiers.md, "A platform file"):
// a small node written out as SimGrid XML, and variants with one part broken.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "file_support.h"

namespace memsim::test {

// Two GPUs behind one switch uplink, as tests/sim/engine/test_tiers.cpp's kOneUplink says with
// YAML keys: each GPU's PCIe link 1e6 B/s (1000 B/ms) and the uplink 1e6 B/s, split
// duplex, no latency; one disk of 1e5 B/s (100 B/ms) on the host.
inline const char* kTwoGpusOneUplinkXml = R"(<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="node" routing="Full">
    <host id="host" speed="1kf">
      <disk id="disk0" read_bw="100kBps" write_bw="100kBps"/>
    </host>
    <host id="gpu0" speed="1kf"/>
    <host id="gpu1" speed="1kf"/>
    <link id="pcie0" bandwidth="1MBps" latency="0s" sharing_policy="SPLITDUPLEX"/>
    <link id="pcie1" bandwidth="1MBps" latency="0s" sharing_policy="SPLITDUPLEX"/>
    <link id="switch0" bandwidth="1MBps" latency="0s" sharing_policy="SPLITDUPLEX"/>
    <route src="gpu0" dst="host"><link_ctn id="pcie0" direction="UP"/><link_ctn id="switch0" direction="UP"/></route>
    <route src="gpu1" dst="host"><link_ctn id="pcie1" direction="UP"/><link_ctn id="switch0" direction="UP"/></route>
  </zone>
</platform>
)";

// `text` with `from` replaced by `to` (once; `from` must be there).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::logic_error("test fixture: '" + from + "' not in the text");
    return text.replace(at, from.size(), to);
}

// Writes `text` as `name` in a fresh folder and returns its path.
inline std::filesystem::path write_platform_xml(const std::string& name, const std::string& text) {
    const std::filesystem::path file = fresh_dir("platform_xml_" + name) / (name + ".xml");
    std::ofstream(file) << text;
    return file;
}

}  // namespace memsim::test
