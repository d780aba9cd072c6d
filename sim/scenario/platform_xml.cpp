// Boost.PropertyTree parses the XML: Boost is already a dependency (Boost.Graph), the
// parser is header-only and reports the line of a syntax error, and the file is small
// (a node's hosts, links and routes); no DTD validation is needed since every element
// memsim relies on is checked here by name.
#include "sim/scenario/platform_xml.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <fmt/format.h>
#include <xbt/parse_units.hpp>

#include "sim/scenario/platform_xml_allow.h"
#include "sim/scenario/platform_xml_text.h"
#include "sim/scenario/platform_xml_zone.h"
#include "sim/scenario/value_limits.h"
#include "models/io/input_file.h"
#include "models/workload/input_error.h"

namespace memsim {

namespace {

namespace pt = boost::property_tree;
using platform_xml::XmlHop;
using platform_xml::XmlLink;
using platform_xml::XmlRoute;
using platform_xml::XmlZone;
using platform_xml::shown;

using UnitParser = double (*)(const std::string&, int, const std::string&, const std::string&);

std::string element(const std::string& tag, const std::string& id) { return fmt::format("{} id=\"{}\"", tag, shown(id)); }

class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& elem, const std::string& what) const { platform_xml::fail(file_, elem, what); }

    static std::optional<std::string> attr(const pt::ptree& node, const char* name) {
        if (auto a = node.get_optional<std::string>(std::string("<xmlattr>.") + name)) return *a;
        return std::nullopt;
    }
    std::string required(const pt::ptree& node, const std::string& elem, const char* name) const {
        const auto a = attr(node, name);
        if (!a || a->empty()) fail(elem, fmt::format("missing its {}=\"...\" attribute", name));
        return *a;
    }

    // A value with SimGrid's units (25GBps, 100Gbps, 2us, 1kf), as SimGrid reads it.
    double value(const std::string& elem, const char* name, const std::string& text, UnitParser parse,
                 const char* example) const {
        try {
            return parse(file_, 0, text, "");
        } catch (const std::exception&) {
            fail(elem, fmt::format("{}=\"{}\" is not a value SimGrid reads (e.g. {})", name, shown(text), example));
        }
    }
    double rate(const std::string& elem, const char* name, const std::string& text) const {
        const double v = value(elem, name, text, xbt_parse_get_bandwidth, "25GBps or 100Gbps");
        if (!(std::isfinite(v) && v >= kMinRateBytesPerS && v <= kMaxRateBytesPerS))
            fail(elem, fmt::format("{}=\"{}\" is out of range [{:g}, {:g}] B/s", name, shown(text), kMinRateBytesPerS, kMaxRateBytesPerS));
        return v;
    }
    double latency_s(const std::string& elem, const char* name, const std::string& text) const {
        const double v = value(elem, name, text, xbt_parse_get_time, "2us or 0.5ms");
        if (!(std::isfinite(v) && v >= 0 && v * 1e3 <= kMaxLatencyMs))
            fail(elem, fmt::format("{}=\"{}\" is out of range [0, {:g}] ms", name, shown(text), kMaxLatencyMs));
        return v;
    }

    const std::string& file() const { return file_; }

private:
    std::string file_;
};

struct HostXml {
    std::optional<double> speed;  // flop/s
    std::map<std::string, DiskSpec> disks;
};

DiskSpec read_disk(const Reader& r, const pt::ptree& node, const std::string& elem) {
    DiskSpec d;
    d.read_bytes_per_s = r.rate(elem, "read_bw", r.required(node, elem, "read_bw"));
    d.write_bytes_per_s = r.rate(elem, "write_bw", r.required(node, elem, "write_bw"));
    std::set<std::string> props;
    for (const auto& [tag, prop] : node) {
        if (tag != "prop") continue;
        const std::string id = r.required(prop, elem + "' <prop", "id");
        const std::string text = r.required(prop, elem + "' <prop id=\"" + id, "value");
        if (!props.insert(id).second) r.fail(elem, fmt::format("<prop id=\"{}\"> is given twice", shown(id)));
        if (id == "read_latency") d.read_latency_ms = r.latency_s(elem, "read_latency", text) * 1e3;
        if (id == "write_latency") d.write_latency_ms = r.latency_s(elem, "write_latency", text) * 1e3;
    }
    return d;
}

void read_link(const Reader& r, const pt::ptree& node, XmlZone& zone) {
    const std::string id = r.required(node, "link", "id");
    const std::string elem = element("link", id);
    if (zone.links.count(id)) r.fail(elem, "defined twice");
    const std::string policy = Reader::attr(node, "sharing_policy").value_or("SHARED");
    if (policy != "SHARED" && policy != "SPLITDUPLEX" && policy != "FULLDUPLEX" && policy != "FATPIPE")
        r.fail(elem, fmt::format("sharing_policy=\"{}\" is not supported (SHARED, SPLITDUPLEX, FULLDUPLEX or FATPIPE)", shown(policy)));
    XmlLink link;
    link.bytes_per_s = r.rate(elem, "bandwidth", r.required(node, elem, "bandwidth"));
    // SimGrid 3.32 reads a missing latency as an empty number (a ParseError).
    link.latency_s = r.latency_s(elem, "latency", r.required(node, elem, "latency"));
    link.split_duplex = policy == "SPLITDUPLEX" || policy == "FULLDUPLEX";  // SimGrid reads FULLDUPLEX as SPLITDUPLEX
    // SimGrid names a split-duplex link's ways ID_UP and ID_DOWN, and aborts (xbt_assert)
    // on a second link of a name; "__loopback__" is its own.
    const std::vector<std::string> names = link.split_duplex ? std::vector<std::string>{id + "_UP", id + "_DOWN"}
                                                             : std::vector<std::string>{id};
    for (const std::string& name : names)
        if (name == "__loopback__" || !zone.simgrid_links.insert(name).second)
            r.fail(elem, fmt::format("SimGrid would name a link '{}' twice (a split-duplex link X is the links X_UP and "
                                     "X_DOWN; __loopback__ is SimGrid's): rename one", shown(name)));
    zone.links[id] = link;
}

void read_route(const Reader& r, const pt::ptree& node, XmlZone& zone) {
    XmlRoute route;
    route.src = r.required(node, "route", "src");
    route.dst = r.required(node, "route", "dst");
    const std::string elem = fmt::format("route src=\"{}\" dst=\"{}\"", shown(route.src), shown(route.dst));
    const std::string sym = Reader::attr(node, "symmetrical").value_or("YES");
    if (sym != "YES" && sym != "yes" && sym != "NO" && sym != "no") r.fail(elem, "symmetrical must be YES or NO");
    route.symmetrical = sym == "YES" || sym == "yes";
    // SimGrid 3.32's Floyd zone asserts (aborts) on a symmetrical route from a point to itself.
    if (route.src == route.dst) r.fail(elem, "routes a host or router to itself: memsim's routes join a GPU and the host");
    for (const std::string& end : {route.src, route.dst})
        if (!zone.netpoints.count(end)) route.undeclared_ends.push_back(end);
    for (const auto& [tag, ctn] : node) {
        if (tag != "link_ctn") continue;
        XmlHop hop{r.required(ctn, elem + "' <link_ctn", "id"), Reader::attr(ctn, "direction").value_or("NONE")};
        const std::string hop_elem = fmt::format("link_ctn id=\"{}\"' in '{}", shown(hop.link), elem);
        if (hop.direction != "UP" && hop.direction != "DOWN" && hop.direction != "NONE")
            r.fail(hop_elem, fmt::format("direction=\"{}\" is none of UP, DOWN, NONE", shown(hop.direction)));
        const auto link = zone.links.find(hop.link);
        if (link == zone.links.end()) r.fail(hop_elem, fmt::format("missing: no <link id=\"{}\"> before this route", shown(hop.link)));
        if (link->second.split_duplex && hop.direction == "NONE")
            r.fail(hop_elem, "the link is SPLITDUPLEX: give direction=\"UP\" or \"DOWN\"");
        if (!link->second.split_duplex && hop.direction != "NONE")
            r.fail(hop_elem, fmt::format("direction=\"{}\" applies to SPLITDUPLEX links only", shown(hop.direction)));
        route.hops.push_back(hop);
    }
    if (route.hops.empty()) r.fail(elem, "has no <link_ctn>: memsim needs the links a transfer crosses");
    // SimGrid aborts on a pair routed twice (xbt_assert), e.g. both ways with the first
    // one symmetrical.
    // (A map of the pairs: a file of 10^5 routes must not compare each with every other.)
    const auto back = zone.route_pairs.find({route.dst, route.src});
    if (zone.route_pairs.count({route.src, route.dst}) ||
        (back != zone.route_pairs.end() && (back->second || route.symmetrical)))
        r.fail(elem, fmt::format("routes {} to {} again (an earlier route, or a symmetrical one the other way, already "
                                 "does: give the ways separately with symmetrical=\"NO\")", shown(route.src), shown(route.dst)));
    zone.route_pairs[{route.src, route.dst}] = route.symmetrical;
    zone.routes.push_back(route);
}

void read_zone(const Reader& r, const pt::ptree& node, XmlZone& zone, std::map<std::string, HostXml>& hosts) {
    zone.id = r.required(node, "zone", "id");
    const std::string elem = element("zone", zone.id);
    zone.routing = r.required(node, elem, "routing");
    // SimGrid 3.32 from Debian, tried on the node of docs/tiers.md: a Floyd zone routes
    // each declared route but no chain of them (route_to throws "No route"), and a
    // Dijkstra zone aborts in route_to even on declared routes.
    if (zone.routing != "Full" && zone.routing != "Floyd")
        r.fail(elem, fmt::format("routing=\"{}\" is not supported (supported: {})", shown(zone.routing), kSupportedRoutings));
    bool routed = false;
    for (const auto& [tag, child] : node) {
        // SimGrid 3.32's DTD: a zone's hosts, routers and links, then its routes (its
        // parser stops at a host after a route).
        if (tag == "route") routed = true;
        else if (routed)
            r.fail(element(tag, Reader::attr(child, "id").value_or("")), "comes after a <route>: SimGrid 3.32 reads a "
                   "zone's hosts, routers and links first, then its routes");
        if (tag == "host" || tag == "router") {
            const std::string id = r.required(child, tag, "id");
            if (zone.netpoints.count(id)) r.fail(element(tag, id), "a host or router of that name is defined twice");
            if (zone.netpoints.size() >= static_cast<std::size_t>(platform_xml::kMaxNetpoints))
                r.fail(element(tag, id), fmt::format("more than {} hosts and routers in the zone (memsim's limit, "
                                                     "docs/limits.md: SimGrid's zone keeps a route table of N x N)",
                                                     platform_xml::kMaxNetpoints));
            if (id == zone.id) r.fail(element(tag, id), "has the zone's name: SimGrid names hosts, routers and zones alike");
            zone.netpoints.insert(id);
            if (tag == "router") continue;
            HostXml& host = hosts[id];
            const std::string host_elem = element("host", id);
            const std::string speed = r.required(child, host_elem, "speed");
            if (speed.find(',') != std::string::npos)
                r.fail(host_elem, fmt::format("speed=\"{}\" lists power states, which memsim does not model: give one speed", shown(speed)));
            host.speed = r.value(host_elem, "speed", speed, xbt_parse_get_speed, "1kf");
            if (!(std::isfinite(*host.speed) && *host.speed > 0))
                r.fail(host_elem, fmt::format("speed=\"{}\" must be a positive speed", shown(speed)));
            for (const auto& [dtag, disk] : child) {
                if (dtag != "disk") continue;
                const std::string disk_id = r.required(disk, host_elem + "' <disk", "id");
                const std::string disk_elem = element("disk", disk_id) + "' in '" + host_elem;
                if (host.disks.count(disk_id)) r.fail(disk_elem, "defined twice");
                host.disks[disk_id] = read_disk(r, disk, disk_elem);
            }
        } else if (tag == "link") {
            read_link(r, child, zone);
        } else if (tag == "route") {
            read_route(r, child, zone);
        }
    }
}

XmlZone read_root(const Reader& r, const pt::ptree& tree, std::map<std::string, HostXml>& hosts) {
    const auto root = tree.get_child_optional("platform");
    if (!root) r.fail("platform", "missing: the file's root element must be <platform version=\"4.1\">");
    const std::string version = r.required(*root, "platform", "version");
    if (version != "4.1") r.fail("platform", fmt::format("version=\"{}\" is not 4.1, the version SimGrid 3.32 reads", shown(version)));
    if (root->count("zone") != 1) r.fail("platform", "must hold exactly one <zone> (the node: docs/tiers.md)");
    XmlZone zone;
    read_zone(r, root->get_child("zone"), zone, hosts);
    return zone;
}

// Names `stem`0, `stem`1, ...: how many, each present (the first gap is reported).
int numbered(const Reader& r, const std::vector<std::string>& names, const std::string& stem, const std::string& tag,
             const std::string& where) {
    const std::regex pattern(stem + "(0|[1-9][0-9]{0,5})");
    int count = 0;
    for (const std::string& n : names) {
        std::smatch m;
        if (std::regex_match(n, m, pattern)) count = std::max(count, std::stoi(m[1].str()) + 1);
    }
    const std::set<std::string> present(names.begin(), names.end());
    for (int i = 0; i < count; ++i) {
        const std::string want = stem + std::to_string(i);
        if (!present.count(want))
            r.fail(element(tag, want) + where, fmt::format("missing: the file has {}{}, so {}0 .. {}{} must all be there",
                                                           stem, count - 1, stem, stem, count - 1));
    }
    return count;
}

// A symmetrical route's way back: its links in reverse order, each split-duplex link in
// its other direction (as SimGrid builds it; the two directions have the same rates).
std::vector<XmlHop> reversed(const std::vector<XmlHop>& hops) {
    std::vector<XmlHop> back(hops.rbegin(), hops.rend());
    for (XmlHop& h : back) h.direction = h.direction == "UP" ? "DOWN" : h.direction == "DOWN" ? "UP" : h.direction;
    return back;
}

LinkSpec route_numbers(const XmlZone& zone, const std::vector<XmlHop>& hops) {
    LinkSpec s{std::numeric_limits<double>::infinity(), 0};
    for (const XmlHop& h : hops) {
        const XmlLink& l = zone.links.at(h.link);
        s.bytes_per_s = std::min(s.bytes_per_s, l.bytes_per_s);
        s.latency_ms += l.latency_s * 1e3;
    }
    return s;
}

}  // namespace

namespace platform_xml {

std::vector<XmlHop> find_route(const XmlZone& zone, const std::string& src, const std::string& dst,
                               const std::function<void(const std::string&)>& missing) {
    for (const XmlRoute& r : zone.routes)
        if (r.src == src && r.dst == dst) return r.hops;
    for (const XmlRoute& r : zone.routes)
        if (r.symmetrical && r.src == dst && r.dst == src) return reversed(r.hops);
    missing(fmt::format("missing: no route from {} to {} (give a <route src=\"{}\" dst=\"{}\">, or one the other way "
                        "with symmetrical=\"YES\", the default; memsim does not chain routes through routers)",
                        src, dst, src, dst));
    return {};
}

}  // namespace platform_xml

PlatformXml read_platform_xml(const std::string& file) {
    const Reader r(file);
    pt::ptree tree;
    const std::string text = read_input_file(file, "platform XML", kMaxYamlFileBytes);
    platform_xml::check_text(file, text);  // before the parse, which recurses per nested element
    std::istringstream stream(text);
    try {
        pt::read_xml(stream, tree, pt::xml_parser::no_comments);
    } catch (const pt::xml_parser_error& e) {
        throw InputError(fmt::format("{}: not valid XML (line {}: {})", file, e.line(), shown(e.message())));
    }
    platform_xml::check_prolog(file, text);  // Boost drops the document type; SimGrid 3.32 needs it
    platform_xml::check_allowed(file, tree);
    std::map<std::string, HostXml> hosts;
    const XmlZone zone = read_root(r, tree, hosts);
    std::vector<std::string> host_names;
    for (const auto& [name, h] : hosts) host_names.push_back(name);

    PlatformXml out;
    out.simgrid_text = platform_xml::write_platform(tree);
    out.gpus = numbered(r, host_names, "gpu", "host", "");
    if (out.gpus == 0)
        r.fail(element("host", "gpu0"), "missing: the GPUs are the hosts gpu0, gpu1, ... (docs/tiers.md, \"A platform file\")");
    if (out.gpus > kMaxGpus) r.fail(element("host", fmt::format("gpu{}", out.gpus - 1)), fmt::format("more than {} GPUs", kMaxGpus));
    for (int g = 0; g < out.gpus; ++g) {
        const std::string id = fmt::format("gpu{}", g);
        if (hosts[id].speed != 1e3)
            r.fail(element("host", id), "speed must be \"1kf\": memsim runs each operator for its profiled cost at 1000 "
                                        "flop/s (scale the GPU with platform.gpu.speed_scale)");
    }
    const auto host = hosts.find("host");
    if (host == hosts.end()) r.fail(element("host", "host"), "missing: the host holding RAM and the disks must be named \"host\"");
    std::vector<std::string> disk_names;
    for (const auto& [name, d] : host->second.disks) disk_names.push_back(name);
    const int disks = numbered(r, disk_names, "disk", "disk", "' in '" + element("host", "host"));
    if (disks == 0) r.fail(element("host", "host"), "has no <disk id=\"disk0\">: GPU i swaps to disk i mod the disks' count");
    for (int d = 0; d < disks; ++d) out.disks.push_back(host->second.disks.at(fmt::format("disk{}", d)));

    // After the names, so that a missing GPU or host is reported as such. (Every host and
    // router precedes every route: read_zone refuses one after a route.)
    for (const XmlRoute& route : zone.routes)
        for (const std::string& end : route.undeclared_ends)
            r.fail(fmt::format("route src=\"{}\" dst=\"{}\"", shown(route.src), shown(route.dst)),
                   fmt::format("'{}' is no host or router of zone '{}'", shown(end), shown(zone.id)));
    for (int g = 0; g < out.gpus; ++g) {
        const std::string gpu = fmt::format("gpu{}", g);
        const auto missing = [&](const std::string& from, const std::string& to) {
            return [&r, from, to](const std::string& what) { r.fail(fmt::format("route src=\"{}\" dst=\"{}\"", from, to), what); };
        };
        const LinkSpec up = route_numbers(zone, platform_xml::find_route(zone, gpu, "host", missing(gpu, "host")));
        const LinkSpec down = route_numbers(zone, platform_xml::find_route(zone, "host", gpu, missing("host", gpu)));
        out.routes.push_back({down.bytes_per_s, up.bytes_per_s, down.latency_ms, up.latency_ms});
    }
    // GPU to GPU: needed only by data-parallel ranks, so a gap is noted, not refused here
    // (SimGrid 3.32 aborts on a missing route: nothing may ask it for one). The pairs are
    // looked up in the zone's map (64 x 63 of them against up to 10^5 routes).
    const auto routed = [&](const std::string& src, const std::string& dst) {
        const auto back = zone.route_pairs.find({dst, src});
        return zone.route_pairs.count({src, dst}) > 0 || (back != zone.route_pairs.end() && back->second);
    };
    for (int from = 0; from < out.gpus && out.unrouted_gpu_pair.empty(); ++from)
        for (int to = 0; to < out.gpus && out.unrouted_gpu_pair.empty(); ++to) {
            const std::string src = fmt::format("gpu{}", from), dst = fmt::format("gpu{}", to);
            if (from == to || routed(src, dst)) continue;
            platform_xml::find_route(zone, src, dst, [&](const std::string& what) {  // for its message
                out.unrouted_gpu_pair = fmt::format("element 'route src=\"{}\" dst=\"{}\"': {}", src, dst, what);
            });
        }
    return out;
}

}  // namespace memsim
