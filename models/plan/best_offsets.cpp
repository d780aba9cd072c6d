#include "models/plan/best_offsets.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include "models/plan/offsets_greedy_by_size.h"
#include "models/plan/peer_heuristic.h"

namespace memsim::plan {

namespace {

using Order = std::vector<std::size_t>;

Order sorted_order(const std::vector<UsageRecord>& records,
                   const std::function<bool(const UsageRecord&, const UsageRecord&)>& before) {
    Order order(records.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return before(records[x], records[y]); });
    return order;
}

int lifetime(const UsageRecord& r) { return r.last_op - r.first_op + 1; }

// Operators by decreasing breadth (ties: lower index), the unplaced tensors alive there by size.
Order breadth_order(const std::vector<UsageRecord>& records) { return breadth_first_order(records); }

}  // namespace

OffsetAssignment best_offsets(const std::vector<UsageRecord>& records, const BestOffsetsOptions& options,
                              BestOffsetsStats* stats) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t bound = live_bytes_peak(records);
    const std::uint64_t align = std::max<std::uint64_t>(1, options.align);
    using Placer = std::function<OffsetAssignment(const Order&)>;
    const std::vector<std::pair<std::string, Placer>> placers{
        {"gap", [&](const Order& o) { return place_in_order(records, o, align); }},
        {"peer", [&](const Order& o) { return peer_place_in_order(records, o, align); }}};

    std::vector<std::pair<std::string, Order>> orders{
        {"size", sorted_order(records, [](const UsageRecord& a, const UsageRecord& b) { return a.bytes > b.bytes; })},
        {"size_lifetime", peer_order(records)},
        {"lifetime_size", sorted_order(records,
                                       [](const UsageRecord& a, const UsageRecord& b) {
                                           if (lifetime(a) != lifetime(b)) return lifetime(a) > lifetime(b);
                                           return a.bytes > b.bytes;
                                       })},
        {"area", sorted_order(records,
                              [](const UsageRecord& a, const UsageRecord& b) {
                                  const double x = static_cast<double>(a.bytes) * lifetime(a);
                                  const double y = static_cast<double>(b.bytes) * lifetime(b);
                                  if (x != y) return x > y;
                                  return a.bytes > b.bytes;
                              })},
        {"breadth", breadth_order(records)},
    };

    OffsetAssignment best;
    best.total = UINT64_MAX;
    Order best_order;
    std::size_t best_placer = 0;
    std::string start;
    // Every ordering with the gap rule, then the peer rule on its own order (so the
    // start is never worse than greedy_by_size_offsets nor than peer_heuristic), until
    // one reaches the lower bound.
    std::vector<std::pair<std::size_t, std::size_t>> starts;  // (placer, order)
    for (std::size_t o = 0; o < orders.size(); ++o) starts.emplace_back(0, o);
    starts.emplace_back(1, 1);
    for (const auto& [p, o] : starts) {
        if (best.total == bound) break;  // nothing can beat the lower bound
        const auto& [name, order] = orders[o];
        OffsetAssignment a = placers[p].second(order);
        if (a.total < best.total) {
            best = std::move(a);
            best_order = order;
            best_placer = p;
            start = name + "/" + placers[p].first;
        }
    }
    if (stats) {
        stats->start = start;
        stats->start_total = best.total;
    }

    // Local search on the order: promote a tensor that reaches the top of the arena.
    std::mt19937_64 rng(options.seed);
    Order current = best_order;
    OffsetAssignment current_plan = best;
    int rounds = 0, improvements = 0;
    for (; rounds < options.rounds && best.total > bound && !records.empty(); ++rounds) {
        if (std::chrono::steady_clock::now() - t0 >= options.time_cap) break;
        std::vector<std::size_t> top;  // positions in `current` of tensors ending at the top
        for (std::size_t pos = 0; pos < current.size(); ++pos) {
            const std::size_t i = current[pos];
            if (records[i].bytes > 0 && current_plan.offsets[i] + records[i].bytes == current_plan.total) top.push_back(pos);
        }
        if (top.empty()) break;
        const std::size_t pos = top[std::uniform_int_distribution<std::size_t>(0, top.size() - 1)(rng)];
        if (pos == 0) continue;
        const std::size_t to = std::uniform_int_distribution<std::size_t>(0, pos - 1)(rng);
        Order trial = current;
        const std::size_t moved = trial[pos];
        trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(pos));
        trial.insert(trial.begin() + static_cast<std::ptrdiff_t>(to), moved);
        OffsetAssignment plan = placers[best_placer].second(trial);
        if (plan.total <= current_plan.total) {
            current = std::move(trial);
            current_plan = std::move(plan);
            if (current_plan.total < best.total) {
                best = current_plan;
                ++improvements;
            }
        }
    }
    if (stats) {
        stats->rounds_run = rounds;
        stats->improvements = improvements;
    }
    return best;
}

}  // namespace memsim::plan
