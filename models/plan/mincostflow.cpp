#include "models/plan/mincostflow.h"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>

namespace memsim::plan {

namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using Graph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, std::int64_t,
                    boost::property<boost::edge_residual_capacity_t, std::int64_t,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor,
                                                    boost::property<boost::edge_weight_t, std::int64_t>>>>>;
using Vertex = Traits::vertex_descriptor;
using Edge = Traits::edge_descriptor;

class FlowNetwork {
public:
    explicit FlowNetwork(std::size_t vertices) : g_(vertices) {}
    Edge add(Vertex from, Vertex to, std::int64_t capacity, std::int64_t cost) {
        const Edge e = boost::add_edge(from, to, g_).first;
        const Edge back = boost::add_edge(to, from, g_).first;
        boost::put(boost::edge_capacity, g_, e, capacity);
        boost::put(boost::edge_capacity, g_, back, 0);
        boost::put(boost::edge_weight, g_, e, cost);
        boost::put(boost::edge_weight, g_, back, -cost);
        boost::put(boost::edge_reverse, g_, e, back);
        boost::put(boost::edge_reverse, g_, back, e);
        return e;
    }
    void solve(Vertex source, Vertex sink) { boost::successive_shortest_path_nonnegative_weights(g_, source, sink); }
    [[nodiscard]] std::int64_t flow(Edge e) const {
        return boost::get(boost::edge_capacity, g_, e) - boost::get(boost::edge_residual_capacity, g_, e);
    }

private:
    Graph g_;
};

// A node of a time chain: the records of one size class that become free (supply) or
// start (demand) at one op.
struct ChainNode {
    std::size_t size_class = 0;
    int time = 0;
    std::vector<std::size_t> records;  // in record order
};

// A supply -> demand link and the flow it carries.
struct Link {
    std::size_t supply = 0, demand = 0;
    Edge edge;
};

}  // namespace

ObjectAssignment mincostflow(const std::vector<UsageRecord>& records) {
    const std::size_t n = records.size();
    std::vector<std::uint64_t> classes;
    for (const UsageRecord& r : records) classes.push_back(r.bytes);
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    auto class_of = [&](std::uint64_t size) {
        return static_cast<std::size_t>(std::lower_bound(classes.begin(), classes.end(), size) - classes.begin());
    };

    // Chains per class, ordered by time (time -> node index).
    std::vector<std::map<int, std::size_t>> supply_at(classes.size()), demand_at(classes.size());
    std::vector<ChainNode> supplies, demands;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t c = class_of(records[j].bytes);
        auto [s, s_new] = supply_at[c].emplace(records[j].last_op + 1, supplies.size());
        if (s_new) supplies.push_back({c, records[j].last_op + 1, {}});
        supplies[s->second].records.push_back(j);
        auto [d, d_new] = demand_at[c].emplace(records[j].first_op, demands.size());
        if (d_new) demands.push_back({c, records[j].first_op, {}});
        demands[d->second].records.push_back(j);
    }

    // Vertices: source, sink, supplies, demands. The tensors of one demand node are
    // interchangeable (same size, same start), so the node stands for them: it sends
    // one unit per tensor to the sink and may draw new objects from the source.
    const Vertex source = 0, sink = 1;
    auto supply_vertex = [&](std::size_t s) { return static_cast<Vertex>(2 + s); };
    auto demand_vertex = [&](std::size_t d) { return static_cast<Vertex>(2 + supplies.size() + d); };
    FlowNetwork net(2 + supplies.size() + demands.size());
    const std::int64_t unbounded = static_cast<std::int64_t>(n);
    for (std::size_t s = 0; s < supplies.size(); ++s)
        net.add(source, supply_vertex(s), static_cast<std::int64_t>(supplies[s].records.size()), 0);
    for (const auto& chain : supply_at)
        for (auto it = chain.begin(); it != chain.end() && std::next(it) != chain.end(); ++it)
            net.add(supply_vertex(it->second), supply_vertex(std::next(it)->second), unbounded, 0);
    for (const auto& chain : demand_at)
        for (auto it = chain.begin(); it != chain.end() && std::next(it) != chain.end(); ++it)
            net.add(demand_vertex(it->second), demand_vertex(std::next(it)->second), unbounded, 0);

    // Links: for each demand chain k and supply class c, the latest supply of c free at
    // each demand node's time, only where it differs from the previous demand node's.
    std::vector<Link> links;
    for (std::size_t k = 0; k < classes.size(); ++k)
        for (std::size_t c = 0; c < classes.size(); ++c) {
            if (supply_at[c].empty()) continue;
            std::size_t previous = kNoRecord;
            const std::int64_t growth = classes[k] > classes[c] ? static_cast<std::int64_t>(classes[k] - classes[c]) : 0;
            for (const auto& [time, d] : demand_at[k]) {
                auto it = supply_at[c].upper_bound(time);  // free_from <= time
                if (it == supply_at[c].begin()) continue;
                --it;
                if (it->second == previous) continue;
                previous = it->second;
                links.push_back({it->second, d, net.add(supply_vertex(it->second), demand_vertex(d), unbounded, growth)});
            }
        }

    std::vector<Edge> new_object_edge(demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const auto count = static_cast<std::int64_t>(demands[d].records.size());
        new_object_edge[d] = net.add(source, demand_vertex(d), count, static_cast<std::int64_t>(classes[demands[d].size_class]));
        net.add(demand_vertex(d), sink, count, 0);
    }
    net.solve(source, sink);
    // Per demand node, how many of its tensors (the first ones in record order) take a
    // handed-over object; the others open new objects.
    std::vector<std::size_t> reusing(demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d)
        reusing[d] = demands[d].records.size() - static_cast<std::size_t>(net.flow(new_object_edge[d]));
    std::vector<bool> reuses(n, false);
    for (std::size_t d = 0; d < demands.size(); ++d)
        for (std::size_t r = 0; r < reusing[d]; ++r) reuses[demands[d].records[r]] = true;

    // 1. Which tensors hand over along each link: per supply class, links by the time of
    //    their supply node; each takes the earliest-freed unused tensors of that class
    //    (there are enough: the chain only carries flow forward in time).
    std::vector<std::vector<std::size_t>> arriving(demands.size());  // per demand node: handing tensors
    {
        std::vector<std::vector<const Link*>> by_class(classes.size());
        for (const Link& l : links)
            if (net.flow(l.edge) > 0) by_class[supplies[l.supply].size_class].push_back(&l);
        for (std::size_t c = 0; c < classes.size(); ++c) {
            auto& list = by_class[c];
            std::stable_sort(list.begin(), list.end(), [&](const Link* a, const Link* b) {
                return supplies[a->supply].time < supplies[b->supply].time;
            });
            auto node = supply_at[c].begin();
            std::deque<std::size_t> free_units;
            for (const Link* l : list) {
                const int time = supplies[l->supply].time;
                for (; node != supply_at[c].end() && node->first <= time; ++node)
                    for (std::size_t j : supplies[node->second].records) free_units.push_back(j);
                for (std::int64_t u = 0; u < net.flow(l->edge); ++u) {
                    if (free_units.empty()) throw std::logic_error("mincostflow: a link carries more than its supply");
                    arriving[l->demand].push_back(free_units.front());
                    free_units.pop_front();
                }
            }
        }
    }

    // 2. Tensors in order of first_op: a tensor fed through its demand node takes a
    //    handing tensor that has reached its demand chain by then (FIFO), and its object.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return records[x].first_op < records[y].first_op; });
    std::vector<std::map<int, std::size_t>::const_iterator> next_demand(classes.size());
    for (std::size_t k = 0; k < classes.size(); ++k) next_demand[k] = demand_at[k].begin();
    std::vector<std::deque<std::size_t>> in_chain(classes.size());

    ObjectAssignment a;
    a.object_ids.assign(n, kNoRecord);
    for (std::size_t i : order) {
        std::size_t obj = kNoRecord;
        if (reuses[i]) {
            const std::size_t k = class_of(records[i].bytes);
            for (; next_demand[k] != demand_at[k].end() && next_demand[k]->first <= records[i].first_op; ++next_demand[k])
                for (std::size_t j : arriving[next_demand[k]->second]) in_chain[k].push_back(j);
            if (in_chain[k].empty()) throw std::logic_error("mincostflow: flow reaches a tensor with nothing free");
            const std::size_t j = in_chain[k].front();
            in_chain[k].pop_front();
            obj = a.object_ids[j];
            if (obj == kNoRecord) throw std::logic_error("mincostflow: a tensor hands over before it has an object");
        }
        if (obj == kNoRecord) {
            obj = a.object_sizes.size();
            a.object_sizes.push_back(0);
        }
        a.object_ids[i] = obj;
        a.object_sizes[obj] = std::max(a.object_sizes[obj], records[i].bytes);
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
