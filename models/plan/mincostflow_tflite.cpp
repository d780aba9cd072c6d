#include "models/plan/mincostflow_tflite.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <span>
#include <stdexcept>
#include <utility>

namespace memsim::plan {

namespace {

// The residual network in TFLite's layout: edge e and its reverse e ^ 1, each vertex's
// out-list in insertion order (forward edges at their tail, reverses at their head).
// Edges are collected first, then frozen into one array of slots grouped by tail
// vertex (compressed sparse rows), so an SPFA scan of a vertex reads its edges
// sequentially; slot_of_ finds an edge's slot again to augment along it.
class TfliteFlowNetwork {
public:
    explicit TfliteFlowNetwork(std::size_t vertices) : vertices_(vertices) {}

    void add(std::size_t from, std::size_t to, std::int64_t cost) {
        pending_.push_back({from, to, cost});
    }

    // Lays the slots out; no edge may be added afterwards.
    void freeze() {
        first_.assign(vertices_ + 1, 0);
        for (const Pending& p : pending_) {
            ++first_[p.from + 1];
            ++first_[p.to + 1];
        }
        for (std::size_t v = 0; v < vertices_; ++v) first_[v + 1] += first_[v];
        slots_.resize(2 * pending_.size());
        slot_of_.resize(2 * pending_.size());
        std::vector<std::size_t> fill(first_.begin(), first_.end() - 1);
        for (std::size_t e = 0; e < pending_.size(); ++e) {
            const Pending& p = pending_[e];
            slot_of_[2 * e] = static_cast<std::uint32_t>(fill[p.from]);
            slots_[fill[p.from]++] = {static_cast<std::uint32_t>(p.to), 1, p.cost};
            slot_of_[2 * e + 1] = static_cast<std::uint32_t>(fill[p.to]);
            slots_[fill[p.to]++] = {static_cast<std::uint32_t>(p.from), 0, -p.cost};
        }
        // Per slot, the slot of its twin (the edge with id ^ 1), for augmenting.
        twin_.resize(slots_.size());
        for (std::size_t id = 0; id < slot_of_.size(); ++id) twin_[slot_of_[id]] = slot_of_[id ^ 1U];
        pending_.clear();
        pending_.shrink_to_fit();
    }

    // Successive shortest paths until no path is left (see the header, point 2).
    void solve(std::size_t source, std::size_t sink) {
        constexpr std::int64_t kUnreached = std::numeric_limits<std::int64_t>::max();
        std::vector<std::int64_t> dist(vertices_);
        std::vector<std::size_t> level_queued(vertices_);
        std::vector<std::uint32_t> via(vertices_);  // slot of the last improving edge
        std::vector<std::size_t> current, next;
        while (true) {
            std::fill(dist.begin(), dist.end(), kUnreached);
            std::fill(level_queued.begin(), level_queued.end(), 0);
            std::size_t level = 1;
            dist[source] = 0;
            level_queued[source] = level;
            current.assign(1, source);
            while (!current.empty()) {
                ++level;
                next.clear();
                for (std::size_t v : current) {
                    const std::int64_t from = dist[v];
                    for (std::size_t k = first_[v]; k < first_[v + 1]; ++k) {
                        const Slot& edge = slots_[k];
                        if (edge.capacity <= 0) continue;
                        const std::int64_t candidate = from + edge.cost;
                        // TFLite's unsigned distances: a negative candidate never wins.
                        if (candidate < 0 || candidate >= dist[edge.to]) continue;
                        dist[edge.to] = candidate;
                        via[edge.to] = static_cast<std::uint32_t>(k);
                        if (level_queued[edge.to] != level) {
                            level_queued[edge.to] = level;
                            next.push_back(edge.to);
                        }
                    }
                }
                std::swap(current, next);
            }
            if (dist[sink] == kUnreached) return;
            for (std::size_t v = sink; v != source;) {
                const std::uint32_t k = via[v];
                --slots_[k].capacity;
                ++slots_[twin_[k]].capacity;
                v = slots_[twin_[k]].to;
            }
        }
    }

    struct Slot {
        std::uint32_t to = 0;
        std::int32_t capacity = 0;
        std::int64_t cost = 0;
    };
    // Vertex v's edges in insertion order.
    [[nodiscard]] std::span<const Slot> out(std::size_t v) const {
        return {slots_.data() + first_[v], first_[v + 1] - first_[v]};
    }

private:
    struct Pending {
        std::size_t from = 0, to = 0;
        std::int64_t cost = 0;
    };
    std::size_t vertices_;
    std::vector<Pending> pending_;
    std::vector<std::size_t> first_;  // vertex v's slots: [first_[v], first_[v + 1])
    std::vector<Slot> slots_;
    std::vector<std::uint32_t> slot_of_;  // by edge id (2 per added edge)
    std::vector<std::uint32_t> twin_;     // by slot
};

}  // namespace

ObjectAssignment mincostflow_tflite(const std::vector<UsageRecord>& records) {
    const std::size_t n = records.size();
    if (n * (n + 6) > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("mincostflow_tflite: too many records for an edge per pair");
    const std::size_t source = 2 * n, sink = 2 * n + 1;
    auto right = [n](std::size_t i) { return n + i; };
    auto is_right = [n](std::size_t v) { return v >= n && v < 2 * n; };
    auto size_of = [&](std::size_t i) { return static_cast<std::int64_t>(records[i].bytes); };

    TfliteFlowNetwork net(2 * n + 2);
    using InUse = std::pair<int, std::size_t>;  // (last_op, record): popped smallest first
    std::priority_queue<InUse, std::vector<InUse>, std::greater<>> in_use;
    std::vector<std::size_t> released;
    for (std::size_t i = 0; i < n; ++i) {
        while (!in_use.empty() && in_use.top().first < records[i].first_op) {
            released.push_back(in_use.top().second);
            in_use.pop();
        }
        in_use.emplace(records[i].last_op, i);
        net.add(source, i, 0);
        net.add(right(i), sink, 0);
        net.add(source, right(i), size_of(i));
        for (std::size_t j : released) net.add(j, right(i), std::max<std::int64_t>(0, size_of(i) - size_of(j)));
    }
    net.freeze();
    net.solve(source, sink);

    ObjectAssignment a;
    a.object_ids.assign(n, kNoRecord);
    for (const auto& opens : net.out(source)) {
        if (opens.capacity != 0 || !is_right(opens.to)) continue;
        const std::size_t obj = a.object_sizes.size();
        std::uint64_t size = 0;
        // Depth first along saturated L_j -> R_k edges: a chain (L_j sends at most one unit).
        std::vector<std::size_t> stack{opens.to - n};
        while (!stack.empty()) {
            const std::size_t j = stack.back();
            stack.pop_back();
            a.object_ids[j] = obj;
            size = std::max(size, records[j].bytes);
            const auto edges = net.out(j);
            for (auto it = edges.rbegin(); it != edges.rend(); ++it)
                if (it->capacity == 0 && is_right(it->to) && a.object_ids[it->to - n] == kNoRecord)
                    stack.push_back(it->to - n);
        }
        a.object_sizes.push_back(size);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (a.object_ids[i] == kNoRecord) throw std::logic_error("mincostflow_tflite: a record received no object");
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
