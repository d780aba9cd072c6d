// The one <zone> of a platform file as the reader holds it (platform_xml.h): plain
// data, names as written.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace memsim::platform_xml {

struct XmlLink {
    double bytes_per_s = 0;
    double latency_s = 0;
    bool split_duplex = false;
};

struct XmlHop {
    std::string link;
    std::string direction;  // UP, DOWN or NONE
};

struct XmlRoute {
    std::string src, dst;
    bool symmetrical = true;
    std::vector<XmlHop> hops;
    std::vector<std::string> undeclared_ends;  // not yet declared where the route is (SimGrid needs them before)
};

struct XmlZone {
    std::string id, routing;
    std::set<std::string> netpoints;  // hosts and routers
    std::map<std::string, XmlLink> links;
    std::set<std::string> simgrid_links;  // the links SimGrid creates: ID, or ID_UP and ID_DOWN
    std::vector<XmlRoute> routes;
    std::map<std::pair<std::string, std::string>, bool> route_pairs;  // (src, dst) -> symmetrical
};

// The links a flow from `src` to `dst` crosses: the route declared for the pair, or
// the reverse of a symmetrical one the other way. Calls `missing(what)` (which throws)
// when there is none.
std::vector<XmlHop> find_route(const XmlZone& zone, const std::string& src, const std::string& dst,
                               const std::function<void(const std::string&)>& missing);

}  // namespace memsim::platform_xml
