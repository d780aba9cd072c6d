#include "models/plan/mincostflow_fast.h"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>

namespace memsim::plan {

namespace {

using Vertex = std::size_t;
using Arc = std::size_t;  // an arc made by FlowNetwork::add, in order
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, std::size_t>;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

// Edge data kept in a vector indexed by the CSR edge index.
template <typename T>
auto edge_map(std::vector<T>& values, const Graph& g) {
    return boost::make_iterator_property_map(values.begin(), boost::get(boost::edge_index, g));
}

// Min-cost max-flow in two Boost.Graph phases. Successive shortest paths alone runs
// one Dijkstra per augmenting path, and most paths here cost nothing (a hand-over to a
// tensor no larger): thousands of Dijkstras, 4-7 s on MobilenetV2. So first a max flow
// over the zero-cost arcs only (push-relabel, one call): a flow of cost 0 is a min-cost
// flow of its value and its residual network has no negative edge, so successive
// shortest paths may continue from it with zero potentials and still end at a min-cost
// max-flow. Boost's SSP starts from residual = capacity, so phase 2 runs on capacities
// set to phase 1's residuals (forward cap - f, backward f).
// The graph is a compressed sparse row graph with the edge data in flat vectors: an
// adjacency_list keeps each edge's properties behind a pointer, and the Dijkstras spend
// their time following them (2-3x slower).
class FlowNetwork {
public:
    explicit FlowNetwork(std::size_t vertices) : vertices_(vertices) {}
    Arc add(Vertex from, Vertex to, std::int64_t capacity, std::int64_t cost) {
        arcs_.push_back({from, to, capacity, cost});
        return arcs_.size() - 1;
    }
    void solve(Vertex source, Vertex sink) {
        // Edge 2a is arc a, edge 2a+1 its reverse; CSR sorts them, `id` finds them again.
        std::vector<std::pair<Vertex, Vertex>> ends;
        std::vector<std::size_t> ids;
        for (std::size_t a = 0; a < arcs_.size(); ++a) {
            ends.emplace_back(arcs_[a].from, arcs_[a].to);
            ends.emplace_back(arcs_[a].to, arcs_[a].from);
            ids.push_back(2 * a);
            ids.push_back(2 * a + 1);
        }
        g_ = Graph(boost::edges_are_unsorted_multi_pass, ends.begin(), ends.end(), ids.begin(), vertices_);
        const std::size_t m = ends.size();
        edge_of_.resize(m);
        for (auto [e, end] = boost::edges(g_); e != end; ++e) edge_of_[g_[*e]] = *e;
        capacity_.assign(m, 0);
        residual_.assign(m, 0);
        weight_.assign(m, 0);
        reverse_.resize(m);
        for (std::size_t a = 0; a < arcs_.size(); ++a) {
            const std::size_t fwd = index(2 * a), back = index(2 * a + 1);
            weight_[fwd] = arcs_[a].cost;
            weight_[back] = -arcs_[a].cost;
            reverse_[fwd] = edge_of_[2 * a + 1];
            reverse_[back] = edge_of_[2 * a];
            capacity_[fwd] = arcs_[a].cost == 0 ? arcs_[a].capacity : 0;
        }
        boost::push_relabel_max_flow(g_, source, sink,
                                     boost::capacity_map(edge_map(capacity_, g_))
                                         .residual_capacity_map(edge_map(residual_, g_))
                                         .reverse_edge_map(edge_map(reverse_, g_)));
        for (std::size_t a = 0; a < arcs_.size(); ++a) {
            const std::size_t fwd = index(2 * a), back = index(2 * a + 1);
            const std::int64_t f = capacity_[fwd] - residual_[fwd];
            capacity_[fwd] = arcs_[a].capacity - f;
            capacity_[back] = f;
        }
        boost::successive_shortest_path_nonnegative_weights(
            g_, source, sink,
            boost::capacity_map(edge_map(capacity_, g_))
                .residual_capacity_map(edge_map(residual_, g_))
                .reverse_edge_map(edge_map(reverse_, g_))
                .weight_map(edge_map(weight_, g_)));
    }
    // Flow of an arc: its capacity less what is left of it.
    [[nodiscard]] std::int64_t flow(Arc a) const { return arcs_[a].capacity - residual_[index(2 * a)]; }

private:
    struct ArcData {
        Vertex from = 0, to = 0;
        std::int64_t capacity = 0, cost = 0;
    };
    [[nodiscard]] std::size_t index(std::size_t id) const { return boost::get(boost::edge_index, g_, edge_of_[id]); }

    std::size_t vertices_;
    std::vector<ArcData> arcs_;
    Graph g_;
    std::vector<Edge> edge_of_;  // by id (2a, 2a+1)
    std::vector<std::int64_t> capacity_, residual_, weight_;  // by CSR edge index
    std::vector<Edge> reverse_;
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
    Arc arc;
};

}  // namespace

ObjectAssignment mincostflow_fast(const std::vector<UsageRecord>& records) {
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

    std::vector<Arc> new_object_arc(demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const auto count = static_cast<std::int64_t>(demands[d].records.size());
        new_object_arc[d] = net.add(source, demand_vertex(d), count, static_cast<std::int64_t>(classes[demands[d].size_class]));
        net.add(demand_vertex(d), sink, count, 0);
    }
    net.solve(source, sink);
    // Per demand node, how many of its tensors (the first ones in record order) take a
    // handed-over object; the others open new objects.
    std::vector<std::size_t> reusing(demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d)
        reusing[d] = demands[d].records.size() - static_cast<std::size_t>(net.flow(new_object_arc[d]));
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
            if (net.flow(l.arc) > 0) by_class[supplies[l.supply].size_class].push_back(&l);
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
                for (std::int64_t u = 0; u < net.flow(l->arc); ++u) {
                    if (free_units.empty()) throw std::logic_error("mincostflow_fast: a link carries more than its supply");
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
            if (in_chain[k].empty()) throw std::logic_error("mincostflow_fast: flow reaches a tensor with nothing free");
            const std::size_t j = in_chain[k].front();
            in_chain[k].pop_front();
            obj = a.object_ids[j];
            if (obj == kNoRecord) throw std::logic_error("mincostflow_fast: a tensor hands over before it has an object");
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
