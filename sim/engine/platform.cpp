#include "sim/engine/platform.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>
#include <xbt/log.h>

#include "models/workload/input_error.h"

namespace memsim {

namespace {

namespace sg = simgrid::s4u;

void create_engine() {
    static char name[] = "memsim";
    static char quiet[] = "--log=root.thres:critical";
    // Exact max-min sharing on links (docs/simgrid.md): no bandwidth/latency factors,
    // no TCP window, no cross traffic. Only the node platform has links.
    static char model[] = "--cfg=network/model:CM02";
    static char gamma[] = "--cfg=network/TCP-gamma:0";
    static char cross[] = "--cfg=network/crosstraffic:0";
#ifdef MEMSIM_SANITIZE
    // ASan cannot follow SimGrid's swapped actor stacks (an exception unwinding on
    // one is reported as a stack overflow): sanitized builds run actors as threads.
    static char threads[] = "--cfg=contexts/factory:thread";
    static char* argv[] = {name, quiet, model, gamma, cross, threads, nullptr};
#else
    static char* argv[] = {name, quiet, model, gamma, cross, nullptr};
#endif
    static int argc = static_cast<int>(std::size(argv)) - 1;
    // SimGrid installs a SIGINT handler that ends the process with exit(1) and no word (its
    // message is below the log threshold): Ctrl-C would look like a failed run. memsim keeps
    // what it had (by default, dying by the signal, the folder left marked INCOMPLETE).
    struct sigaction before {};
    sigaction(SIGINT, nullptr, &before);
    new sg::Engine(&argc, argv);
    sigaction(SIGINT, &before, nullptr);
    xbt_log_control_set("root.thres:critical");
}

void set_disk_rates(sg::Disk* disk, const DiskSpec& d) {
    disk->set_read_bandwidth(d.read_bytes_per_s * SimPlatform::kDiskScale);
    disk->set_write_bandwidth(d.write_bytes_per_s * SimPlatform::kDiskScale);
    // The disk also has a shared read+write constraint, fixed at creation to the larger
    // of the two: without this, a later run with a faster disk would be capped by the
    // first run's bandwidth. (Our disk actor serves one I/O at a time, so it never binds.)
    disk->set_readwrite_bandwidth(std::max(d.read_bytes_per_s, d.write_bytes_per_s) * SimPlatform::kDiskScale);
}

// The node's links get their rates here, at creation and again for a later run.
void set_link_rates(const SimPlatform& p, const PlatformSpec& spec) {
    for (sg::Link* l : p.pcie_links) {
        l->set_bandwidth(spec.host_link->bytes_per_s * SimPlatform::kDiskScale);
        l->set_latency(spec.host_link->latency_ms / 1e3);
    }
    for (sg::Link* l : p.switch_links) l->set_bandwidth(spec.switch_bytes_per_s * SimPlatform::kDiskScale);
    for (sg::Link* l : p.nvlinks) {
        l->set_bandwidth(spec.nvlink->bytes_per_s * SimPlatform::kDiskScale);
        l->set_latency(spec.nvlink->latency_ms / 1e3);
    }
    const std::vector<TierSpec> tiers = spec.tiers();
    for (std::size_t t = 0; t < p.devices.size(); ++t)
        for (std::size_t i = 0; i < p.devices[t].size(); ++i) set_disk_rates(p.devices[t][i], tiers[t].devices[i]);
}

std::string shape_of(const PlatformSpec& spec) {
    if (!spec.simgrid_file.empty()) return "the SimGrid platform file " + spec.simgrid_file;
    if (!spec.host_link) return "one GPU and its disk";
    return fmt::format("{} GPUs, {} per switch, {} disks{}", spec.gpus, spec.gpus_per_switch, spec.disk_count(),
                       spec.nvlink ? ", NVLink" : "");
}

// GPU i to GPU j (the collectives of docs/parallel.md): with NVLink, i's link up to the
// NVSwitch and j's down from it; otherwise peer to peer over PCIe: i's link up, through
// the switch they share (or up i's uplink and down j's when they share none; through the
// host's root complex without switches), j's link down.
void add_peer_routes(SimPlatform& p, const PlatformSpec& spec, sg::NetZone& zone, int switches) {
    if (spec.nvlink)
        for (int g = 0; g < spec.gpus; ++g)
            p.nvlinks.push_back(zone.create_split_duplex_link(fmt::format("nvlink{}", g), 1e9)->seal());
    for (int i = 0; i < spec.gpus; ++i)
        for (int j = 0; j < spec.gpus; ++j) {
            if (i == j) continue;
            std::vector<sg::LinkInRoute> route;
            if (spec.nvlink) {
                route = {{p.nvlinks[i], sg::LinkInRoute::Direction::UP}, {p.nvlinks[j], sg::LinkInRoute::Direction::DOWN}};
            } else {
                route.emplace_back(p.pcie_links[i], sg::LinkInRoute::Direction::UP);
                if (switches > 0 && i / spec.gpus_per_switch != j / spec.gpus_per_switch) {
                    route.emplace_back(p.switch_links[static_cast<std::size_t>(i / spec.gpus_per_switch)],
                                       sg::LinkInRoute::Direction::UP);
                    route.emplace_back(p.switch_links[static_cast<std::size_t>(j / spec.gpus_per_switch)],
                                       sg::LinkInRoute::Direction::DOWN);
                }
                route.emplace_back(p.pcie_links[j], sg::LinkInRoute::Direction::DOWN);
            }
            zone.add_route(p.gpus[i]->get_netpoint(), p.gpus[j]->get_netpoint(), nullptr, nullptr, route, false);
        }
}

// gpu_i -> host: its PCIe link then its switch's uplink, the UP direction; the way
// back uses the DOWN directions, so reads and writes do not share (full duplex).
void build_node(SimPlatform& p, const PlatformSpec& spec) {
    auto* zone = sg::create_full_zone("node");
    p.host = zone->create_host("host", 1e3);
    for (const TierSpec& tier : spec.tiers()) {
        p.devices.emplace_back();
        for (std::size_t i = 0; i < tier.devices.size(); ++i) {
            const DiskSpec& d = tier.devices[i];
            p.devices.back().push_back(p.host->create_disk(fmt::format("{}{}", tier.key, i),
                                                           d.read_bytes_per_s * SimPlatform::kDiskScale,
                                                           d.write_bytes_per_s * SimPlatform::kDiskScale));
        }
    }
    const int switches = spec.gpus_per_switch > 0 ? (spec.gpus + spec.gpus_per_switch - 1) / spec.gpus_per_switch : 0;
    for (int s = 0; s < switches; ++s)
        p.switch_links.push_back(zone->create_split_duplex_link(fmt::format("switch{}", s), 1e9)->seal());
    for (int g = 0; g < spec.gpus; ++g) {
        p.gpus.push_back(zone->create_host(fmt::format("gpu{}", g), 1e3));
        p.pcie_links.push_back(zone->create_split_duplex_link(fmt::format("pcie{}", g), 1e9)->seal());
    }
    for (int g = 0; g < spec.gpus; ++g) {
        std::vector<sg::LinkInRoute> up{{p.pcie_links[g], sg::LinkInRoute::Direction::UP}};
        std::vector<sg::LinkInRoute> down{{p.pcie_links[g], sg::LinkInRoute::Direction::DOWN}};
        if (switches > 0) {
            sg::Link* uplink = p.switch_links[static_cast<std::size_t>(g / spec.gpus_per_switch)];
            up.emplace_back(uplink, sg::LinkInRoute::Direction::UP);
            down.insert(down.begin(), sg::LinkInRoute(uplink, sg::LinkInRoute::Direction::DOWN));
        }
        zone->add_route(p.gpus[g]->get_netpoint(), p.host->get_netpoint(), nullptr, nullptr, up, false);
        zone->add_route(p.host->get_netpoint(), p.gpus[g]->get_netpoint(), nullptr, nullptr, down, false);
    }
    add_peer_routes(p, spec, *zone, switches);
    zone->seal();
    p.gpu = p.gpus.front();
    set_link_rates(p, spec);
}

// SimGrid's own route from `from` to `to` against the one the scenario parser read from
// the file (the transfer predictions use it): they agree unless the reader and SimGrid
// part ways (a Floyd zone might prefer a path through other routes; memsim expects the
// declared one).
void check_route(const PlatformSpec& spec, sg::Host* from, sg::Host* to, double bytes_per_s, double latency_ms) {
    std::vector<sg::Link*> links;
    double latency_s = 0;
    try {
        from->route_to(to, links, &latency_s);
    } catch (const std::exception& e) {
        throw InputError(fmt::format("{}: SimGrid finds no route from {} to {}: {}", spec.simgrid_file, from->get_name(),
                                     to->get_name(), e.what()));
    }
    double bottleneck = std::numeric_limits<double>::infinity();
    for (const sg::Link* l : links) bottleneck = std::min(bottleneck, l->get_bandwidth() / SimPlatform::kDiskScale);
    const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); };
    if (!near(bottleneck, bytes_per_s) || !near(latency_s * 1e3, latency_ms))
        throw InputError(fmt::format("{}: SimGrid routes {} to {} over a path of {:g} B/s and {:g} ms, not the one memsim "
                                     "read ({:g} B/s, {:g} ms): give that pair an explicit <route>",
                                     spec.simgrid_file, from->get_name(), to->get_name(), bottleneck, latency_s * 1e3,
                                     bytes_per_s, latency_ms));
}

// SimGrid reads a platform from a path only: the checked text goes into an anonymous
// in-memory file, named by its descriptor (no file on disk to leave behind or swap).
void load_checked_text(sg::Engine* engine, const PlatformSpec& spec) {
    if (spec.simgrid_xml.empty()) throw std::logic_error("platform.file reached the engine unchecked (no simgrid_xml)");
    const int fd = memfd_create("memsim_platform", MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error(fmt::format("cannot create an in-memory file for {}", spec.simgrid_file));
    const std::string path = fmt::format("/proc/self/fd/{}", fd);
    try {
        const char* data = spec.simgrid_xml.data();
        std::size_t left = spec.simgrid_xml.size();
        while (left > 0) {
            const ssize_t n = ::write(fd, data, left);
            if (n <= 0) throw std::runtime_error(fmt::format("cannot write the in-memory copy of {}", spec.simgrid_file));
            data += n;
            left -= static_cast<std::size_t>(n);
        }
        engine->load_platform(path);
    } catch (const std::exception& e) {
        ::close(fd);
        std::string what = e.what();  // SimGrid names the descriptor's path: name the user's file
        for (std::size_t at; (at = what.find(path)) != std::string::npos;) what.replace(at, path.size(), "(memsim's copy)");
        throw InputError(fmt::format("{}: SimGrid cannot load it: {}", spec.simgrid_file, what));
    }
    ::close(fd);
}

// platform.file: SimGrid loads memsim's copy of it (the scenario parser has checked what
// SimGrid 3.32 would abort on and wrote out only what memsim models,
// sim/scenario/platform_xml_allow.h); memsim finds the node by its names and scales
// every rate by kDiskScale as it does for the node it builds.
void load_node(SimPlatform& p, const PlatformSpec& spec) {
    sg::Engine* engine = sg::Engine::get_instance();
    load_checked_text(engine, spec);
    const auto host = [&](const std::string& name) {
        sg::Host* h = engine->host_by_name_or_null(name);
        if (!h) throw InputError(fmt::format("{}: element 'host id=\"{}\"': missing once loaded", spec.simgrid_file, name));
        return h;
    };
    p.host = host("host");
    for (int g = 0; g < spec.gpus; ++g) p.gpus.push_back(host(fmt::format("gpu{}", g)));
    for (const TierSpec& tier : spec.tiers()) {
        p.devices.emplace_back();
        for (std::size_t d = 0; d < tier.devices.size(); ++d) {
            const std::string name = fmt::format("{}{}", tier.key, d);
            const std::vector<sg::Disk*> disks = p.host->get_disks();
            const auto it = std::find_if(disks.begin(), disks.end(), [&](const sg::Disk* k) { return k->get_name() == name; });
            if (it == disks.end())
                throw InputError(
                    fmt::format("{}: element 'disk id=\"{}\"': missing on host once loaded", spec.simgrid_file, name));
            p.devices.back().push_back(*it);
            set_disk_rates(*it, tier.devices[d]);
        }
    }
    for (sg::Link* l : engine->get_all_links()) l->set_bandwidth(l->get_bandwidth() * SimPlatform::kDiskScale);
    for (int g = 0; g < spec.gpus; ++g) {
        const DiskSpec& route = spec.file_routes[static_cast<std::size_t>(g)];
        check_route(spec, p.gpus[g], p.host, route.write_bytes_per_s, route.write_latency_ms);
        check_route(spec, p.host, p.gpus[g], route.read_bytes_per_s, route.read_latency_ms);
    }
    p.gpu = p.gpus.front();
}

}  // namespace

#ifdef MEMSIM_SANITIZE
ActorThreadsOnOneCpu::ActorThreadsOnOneCpu() {
    const int cpu = sched_getcpu();
    if (cpu < 0 || pthread_getaffinity_np(pthread_self(), sizeof before_, &before_) != 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned_ = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

ActorThreadsOnOneCpu::~ActorThreadsOnOneCpu() {
    if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof before_, &before_);
}
#else
ActorThreadsOnOneCpu::ActorThreadsOnOneCpu() = default;
ActorThreadsOnOneCpu::~ActorThreadsOnOneCpu() = default;
#endif

SimPlatform build_platform(const PlatformSpec& spec) {
    // One Engine per process (SimGrid aborts on a second one): created on first use and
    // kept; later simulations in the same process reuse it and measure time relative to
    // their own start, since the clock never goes back.
    static SimPlatform platform;
    static std::string shape;
    if (!platform.gpu) {
        create_engine();
        shape = shape_of(spec);
        if (!spec.simgrid_file.empty()) {
            load_node(platform, spec);
            return platform;
        }
        if (spec.host_link) {
            build_node(platform, spec);
            return platform;
        }
        auto* zone = sg::create_full_zone("root");
        // 1000 flop/s: executing C flops lasts C ms; speed scaling divides the amount.
        platform.gpu = zone->create_host("gpu", 1e3);
        platform.disk = platform.gpu->create_disk("disk", spec.disk.read_bytes_per_s * SimPlatform::kDiskScale,
                                                  spec.disk.write_bytes_per_s * SimPlatform::kDiskScale);
        zone->seal();
        return platform;
    }
    if (shape_of(spec) != shape)
        throw std::logic_error(fmt::format("this process built the platform '{}' and cannot build '{}' (one shape per process)",
                                           shape, shape_of(spec)));
    if (!spec.simgrid_file.empty()) return platform;  // the file's rates, scaled once
    if (platform.is_node()) set_link_rates(platform, spec);
    else set_disk_rates(platform.disk, spec.disk);
    return platform;
}

}  // namespace memsim
