#include "sim/scenario/node_section.h"

#include "sim/scenario/platform_xml.h"
#include "sim/scenario/units.h"

namespace memsim {

DiskSpec parse_disk(const YAML::Node& d, const Parser& p, const std::string& key) {
    DiskSpec disk;
    if (!d) return disk;
    if (d["bandwidth"])
        disk.read_bytes_per_s = disk.write_bytes_per_s = p.with_units(d["bandwidth"], key + ".bandwidth", parse_rate_bytes_per_s);
    if (d["read_bandwidth"])
        disk.read_bytes_per_s = p.with_units(d["read_bandwidth"], key + ".read_bandwidth", parse_rate_bytes_per_s);
    if (d["write_bandwidth"])
        disk.write_bytes_per_s = p.with_units(d["write_bandwidth"], key + ".write_bandwidth", parse_rate_bytes_per_s);
    if (d["latency"])
        disk.read_latency_ms = disk.write_latency_ms = p.with_units(d["latency"], key + ".latency", parse_time_ms);
    if (d["read_latency"]) disk.read_latency_ms = p.with_units(d["read_latency"], key + ".read_latency", parse_time_ms);
    if (d["write_latency"]) disk.write_latency_ms = p.with_units(d["write_latency"], key + ".write_latency", parse_time_ms);
    return disk;
}

namespace {

// platform.file: the node is the file's (platform_xml.h). The keys that describe links
// and disks would contradict it and are refused; platform.gpus, if given, must agree.
void parse_platform_file(const YAML::Node& n, const Parser& p, PlatformSpec& s) {
    s.simgrid_file = p.path(n["file"], "platform.file");
    const YAML::Node host = n["host"];
    const char* conflict = host && host["link"]   ? "platform.host.link"
                           : n["gpus_per_switch"] ? "platform.gpus_per_switch"
                           : n["switch"]          ? "platform.switch"
                           : n["disks"]           ? "platform.disks"
                           : n["disk"]            ? "platform.disk"
                           : n["nvlink"]          ? "platform.nvlink"
                                                  : nullptr;
    if (conflict)
        p.fail(conflict, fmt::format("cannot be set with platform.file ({}): the file describes the links, switches and "
                                     "disks (docs/tiers.md, \"A platform file\")", s.simgrid_file));
    const PlatformXml xml = read_platform_xml(s.simgrid_file);
    if (n["gpus"] && s.gpus != xml.gpus)
        p.fail("platform.gpus", fmt::format("{} disagrees with platform.file {}, which has {} GPUs (gpu0 .. gpu{})", s.gpus,
                                            s.simgrid_file, xml.gpus, xml.gpus - 1));
    s.gpus = xml.gpus;
    s.disks = xml.disks;
    s.disk = s.disks.front();
    s.file_routes = xml.routes;
    s.file_unrouted_gpu_pair = xml.unrouted_gpu_pair;
    s.simgrid_xml = xml.simgrid_text;
}

}  // namespace

void parse_node_keys(const YAML::Node& n, const Parser& p, PlatformSpec& s) {
    if (n["gpus"]) {
        s.gpus = p.scalar<int>(n["gpus"], "platform.gpus", "a whole number");
        if (s.gpus < 1 || s.gpus > kMaxGpus)
            p.fail("platform.gpus", fmt::format("{} is out of range [1, {}] (the GPUs of one node)", s.gpus, kMaxGpus));
    }
    if (const YAML::Node h = n["host"]) {
        if (h["memory"]) s.host_memory = p.with_units(h["memory"], "platform.host.memory", parse_bytes);
        if (const YAML::Node c = h["cpu"]) {
            if (!c.IsMap() || !c["speed"] || !c["memory_bandwidth"])
                p.fail("platform.host.cpu", "give speed (flop/s, e.g. 2e12) and memory_bandwidth (e.g. 100GB/s)");
            HostCpuSpec cpu;
            cpu.flops = p.scalar<double>(c["speed"], "platform.host.cpu.speed", "a number of flop/s");
            cpu.memory_bytes_per_s = p.with_units(c["memory_bandwidth"], "platform.host.cpu.memory_bandwidth",
                                                  parse_rate_bytes_per_s);
            s.host_cpu = cpu;
        }
        if (const YAML::Node l = h["link"]) {
            if (!l["bandwidth"]) p.fail("platform.host.link", "missing bandwidth (each GPU's PCIe link, e.g. 25GB/s)");
            LinkSpec link;
            link.bytes_per_s = p.with_units(l["bandwidth"], "platform.host.link.bandwidth", parse_rate_bytes_per_s);
            if (l["latency"]) link.latency_ms = p.with_units(l["latency"], "platform.host.link.latency", parse_time_ms);
            s.host_link = link;
        }
    }
    if (n["gpus_per_switch"]) {
        s.gpus_per_switch = p.scalar<int>(n["gpus_per_switch"], "platform.gpus_per_switch", "a whole number");
        if (s.gpus_per_switch < 1 || s.gpus_per_switch > kMaxGpus)
            p.fail("platform.gpus_per_switch", fmt::format("{} is out of range [1, {}]", s.gpus_per_switch, kMaxGpus));
    }
    if (n["switch"] && n["switch"]["bandwidth"])
        s.switch_bytes_per_s = p.with_units(n["switch"]["bandwidth"], "platform.switch.bandwidth", parse_rate_bytes_per_s);
    if ((s.gpus_per_switch > 0) != (s.switch_bytes_per_s > 0))
        p.fail(s.gpus_per_switch > 0 ? "platform.gpus_per_switch" : "platform.switch.bandwidth",
               "give platform.gpus_per_switch and platform.switch.bandwidth together (the GPUs behind one uplink, its bandwidth)");
    if (const YAML::Node list = n["disks"]) {
        if (n["disk"]) p.fail("platform.disks", "give either platform.disk (one disk) or platform.disks (a list), not both");
        if (!list.IsSequence() || list.size() == 0) p.fail("platform.disks", "must be a non-empty list of disks");
        for (std::size_t i = 0; i < list.size(); ++i)
            s.disks.push_back(parse_disk(list[i], p, fmt::format("platform.disks[{}]", i)));
        s.disk = s.disks.front();
    }
    if (const YAML::Node l = n["nvlink"]) {
        if (!l.IsMap() || !l["bandwidth"])
            p.fail("platform.nvlink", "missing bandwidth (each GPU's link to the NVSwitch, e.g. 300GB/s)");
        LinkSpec link;
        link.bytes_per_s = p.with_units(l["bandwidth"], "platform.nvlink.bandwidth", parse_rate_bytes_per_s);
        if (l["latency"]) link.latency_ms = p.with_units(l["latency"], "platform.nvlink.latency", parse_time_ms);
        s.nvlink = link;
    }
    if (n["gpu_offset_ms"]) s.gpu_offset_ms = p.with_units(n["gpu_offset_ms"], "platform.gpu_offset_ms", parse_time_ms);
    if (n["file"]) parse_platform_file(n, p, s);
    // The node keys describe what sits behind the host link: without it there is none.
    if (!s.has_host_tier()) {
        const char* needs = s.gpus > 1              ? "platform.gpus"
                            : s.host_memory         ? "platform.host.memory"
                            : s.gpus_per_switch > 0 ? "platform.gpus_per_switch"
                            : s.disks.size() > 1    ? "platform.disks"
                            : s.gpu_offset_ms > 0   ? "platform.gpu_offset_ms"
                            : s.nvlink              ? "platform.nvlink"
                                                    : nullptr;
        if (needs)
            p.fail(needs, "needs platform.host.link (the PCIe link from each GPU to the host, e.g. {bandwidth: 25GB/s}): "
                          "without it a single GPU swaps straight to its disk");
    }
}

}  // namespace memsim
