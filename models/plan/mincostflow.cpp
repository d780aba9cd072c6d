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
    [[nodiscard]] bool saturated(Edge e) const { return boost::get(boost::edge_residual_capacity, g_, e) == 0; }

private:
    Graph g_;
};

// A supply node: the tensors of one size class that become free at one op.
struct Supply {
    std::size_t size_class = 0;
    int free_from = 0;                // first op at which they are free (last_op + 1)
    std::vector<std::size_t> tensors; // records, in record order
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

    // Supply nodes per class, ordered by free_from.
    std::vector<std::map<int, std::size_t>> supply_at(classes.size());  // free_from -> supply index
    std::vector<Supply> supplies;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t c = class_of(records[j].bytes);
        auto [it, fresh] = supply_at[c].emplace(records[j].last_op + 1, supplies.size());
        if (fresh) supplies.push_back({c, records[j].last_op + 1, {}});
        supplies[it->second].tensors.push_back(j);
    }

    // Vertices: source, sink, one per supply, one per tensor (the right side).
    const Vertex source = 0, sink = 1;
    auto supply_vertex = [&](std::size_t s) { return static_cast<Vertex>(2 + s); };
    auto tensor_vertex = [&](std::size_t i) { return static_cast<Vertex>(2 + supplies.size() + i); };
    FlowNetwork net(2 + supplies.size() + n);
    const std::int64_t unbounded = static_cast<std::int64_t>(n);
    for (std::size_t s = 0; s < supplies.size(); ++s)
        net.add(source, supply_vertex(s), static_cast<std::int64_t>(supplies[s].tensors.size()), 0);
    for (const auto& chain : supply_at)
        for (auto it = chain.begin(); it != chain.end() && std::next(it) != chain.end(); ++it)
            net.add(supply_vertex(it->second), supply_vertex(std::next(it)->second), unbounded, 0);

    std::vector<Edge> new_object_edge(n);
    std::vector<std::vector<std::pair<std::size_t, Edge>>> reuse_edges(n);  // (class, edge)
    for (std::size_t i = 0; i < n; ++i) {
        const UsageRecord& r = records[i];
        new_object_edge[i] = net.add(source, tensor_vertex(i), 1, static_cast<std::int64_t>(r.bytes));
        net.add(tensor_vertex(i), sink, 1, 0);
        for (std::size_t c = 0; c < classes.size(); ++c) {
            // The latest supply of class c free at first_op(i) (free_from <= first_op).
            auto it = supply_at[c].upper_bound(r.first_op);
            if (it == supply_at[c].begin()) continue;
            --it;
            const std::int64_t growth = r.bytes > classes[c] ? static_cast<std::int64_t>(r.bytes - classes[c]) : 0;
            reuse_edges[i].emplace_back(c, net.add(supply_vertex(it->second), tensor_vertex(i), 1, growth));
        }
    }
    net.solve(source, sink);

    // Turn the flow into objects. Tensors in order of first_op; a tensor fed by class c
    // takes the earliest-freed unused tensor of that class that is free by then (the
    // flow guarantees one exists: availability only grows with time).
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return records[x].first_op < records[y].first_op; });
    std::vector<std::map<int, std::size_t>::const_iterator> next_supply(classes.size());
    for (std::size_t c = 0; c < classes.size(); ++c) next_supply[c] = supply_at[c].begin();
    std::vector<std::deque<std::size_t>> free_tensors(classes.size());

    ObjectAssignment a;
    a.object_ids.assign(n, kNoRecord);
    for (std::size_t i : order) {
        std::size_t obj = kNoRecord;
        if (!net.saturated(new_object_edge[i])) {
            for (const auto& [c, e] : reuse_edges[i]) {
                if (!net.saturated(e)) continue;
                for (; next_supply[c] != supply_at[c].end() && next_supply[c]->first <= records[i].first_op; ++next_supply[c])
                    for (std::size_t j : supplies[next_supply[c]->second].tensors) free_tensors[c].push_back(j);
                if (free_tensors[c].empty()) throw std::logic_error("mincostflow: flow uses a tensor that is not free");
                obj = a.object_ids[free_tensors[c].front()];
                free_tensors[c].pop_front();
                break;
            }
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
