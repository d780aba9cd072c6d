#include "app/scenario/platform_xml_zone.h"

#include <algorithm>
#include <cstddef>
#include <limits>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <fmt/format.h>

namespace memsim::platform_xml {

namespace {

// A symmetrical route's way back: its links in reverse order (each split-duplex link in
// its other direction; the two directions have the same bandwidth and latency).
std::vector<XmlHop> reversed(const std::vector<XmlHop>& hops) {
    std::vector<XmlHop> back(hops.rbegin(), hops.rend());
    for (XmlHop& h : back) h.direction = h.direction == "UP" ? "DOWN" : h.direction == "DOWN" ? "UP" : h.direction;
    return back;
}

struct Edge {
    std::size_t from, to;
    std::vector<XmlHop> hops;
};

std::vector<Edge> edges_of(const XmlZone& zone, const std::vector<std::string>& names) {
    const auto index = [&](const std::string& n) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), n) - names.begin());
    };
    std::vector<Edge> edges;
    for (const XmlRoute& r : zone.routes) {
        edges.push_back({index(r.src), index(r.dst), r.hops});
        if (r.symmetrical) edges.push_back({index(r.dst), index(r.src), reversed(r.hops)});
    }
    return edges;
}

// Floyd and Dijkstra zones (SimGrid's FloydZone and DijkstraZone) weigh each declared
// route by its number of links and take a cheapest path; Boost.Graph's Dijkstra finds
// one. Between paths of equal cost SimGrid may pick another one: the engine compares
// SimGrid's route with this one once the file is loaded (engine/platform.cpp).
std::vector<XmlHop> shortest_path(const XmlZone& zone, const std::string& src, const std::string& dst,
                                  const std::function<void(const std::string&)>& missing) {
    const std::vector<std::string> names(zone.netpoints.begin(), zone.netpoints.end());
    const std::vector<Edge> edges = edges_of(zone, names);
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                        boost::property<boost::edge_weight_t, std::size_t, boost::property<boost::edge_index_t, std::size_t>>>;
    Graph g(names.size());
    for (std::size_t e = 0; e < edges.size(); ++e)
        boost::add_edge(edges[e].from, edges[e].to, {edges[e].hops.size(), {e}}, g);
    const auto at = [&](const std::string& n) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), n) - names.begin());
    };
    const std::size_t from = at(src), to = at(dst);
    std::vector<std::size_t> pred(names.size());
    std::vector<std::size_t> dist(names.size());
    boost::dijkstra_shortest_paths(g, from, boost::predecessor_map(pred.data()).distance_map(dist.data()));
    if (pred[to] == to && to != from)
        missing(fmt::format("missing: no chain of <route>s leads from {} to {} in this {} zone", src, dst, zone.routing));
    std::vector<XmlHop> path;
    for (std::size_t v = to; v != from; v = pred[v]) {
        // The cheapest declared edge pred[v] -> v (parallel routes may exist).
        const Edge* best = nullptr;
        for (const Edge& e : edges)
            if (e.from == pred[v] && e.to == v && (!best || e.hops.size() < best->hops.size())) best = &e;
        path.insert(path.begin(), best->hops.begin(), best->hops.end());
    }
    return path;
}

}  // namespace

std::vector<XmlHop> find_route(const XmlZone& zone, const std::string& src, const std::string& dst,
                               const std::function<void(const std::string&)>& missing) {
    if (zone.routing != "Full") return shortest_path(zone, src, dst, missing);
    for (const XmlRoute& r : zone.routes)
        if (r.src == src && r.dst == dst) return r.hops;
    for (const XmlRoute& r : zone.routes)
        if (r.symmetrical && r.src == dst && r.dst == src) return reversed(r.hops);
    missing(fmt::format("missing: no route from {} to {} (a Full zone needs a <route src=\"{}\" dst=\"{}\">, or the "
                        "other way round with symmetrical=\"YES\", the default)",
                        src, dst, src, dst));
    return {};
}

}  // namespace memsim::platform_xml
