#include "models/plan/peer_heuristic.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <set>

namespace memsim::plan {

namespace {

constexpr std::uint64_t kOpen = std::numeric_limits<std::uint64_t>::max();

struct Block {
    std::uint64_t start, end;
    std::size_t record;
    bool operator<(const Block& o) const { return start != o.start ? start < o.start : record < o.record; }
};

}  // namespace

std::vector<std::size_t> peer_order(const std::vector<UsageRecord>& records) {
    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const UsageRecord& a = records[x];
        const UsageRecord& b = records[y];
        if (a.bytes != b.bytes) return a.bytes > b.bytes;
        const int la = a.last_op - a.first_op, lb = b.last_op - b.first_op;
        if (la != lb) return la > lb;
        return a.first_op < b.first_op;
    });
    return order;
}

OffsetAssignment peer_place_in_order(const std::vector<UsageRecord>& records, const std::vector<std::size_t>& order,
                                     std::uint64_t align) {
    OffsetAssignment a;
    a.offsets.assign(records.size(), 0);
    std::vector<std::size_t> placed;
    placed.reserve(records.size());
    std::vector<std::size_t> overlapping;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> candidates;  // (gap length, start)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> occupied;    // merged [start, end)
    for (std::size_t i : order) {
        const UsageRecord& r = records[i];
        const std::uint64_t size = r.bytes;
        overlapping.clear();
        for (std::size_t j : placed)
            if (intervals_intersect(r, records[j]) && records[j].bytes > 0) overlapping.push_back(j);

        // Sweep the lifetime: the set alive at each operator changes only where an
        // overlapping tensor starts or ends; every gap that appears is a candidate.
        candidates.clear();
        std::vector<std::pair<int, int>> events;  // (op, +index+1 insert / -(index+1) remove)
        std::set<Block> alive;
        for (std::size_t k = 0; k < overlapping.size(); ++k) {
            const UsageRecord& o = records[overlapping[k]];
            if (o.first_op <= r.first_op) {
                const std::size_t j = overlapping[k];
                alive.insert({a.offsets[j], a.offsets[j] + records[j].bytes, j});
            } else {
                events.emplace_back(o.first_op, static_cast<int>(k) + 1);
            }
            if (o.last_op < r.last_op) events.emplace_back(o.last_op + 1, -static_cast<int>(k) - 1);
        }
        // Removals before insertions at the same op: the set at op x is what is alive there.
        std::sort(events.begin(), events.end());
        auto add_gap = [&](std::uint64_t start, std::uint64_t end) {
            start = align_up(start, align);
            if (end == kOpen) candidates.emplace_back(kOpen, start);
            else if (end >= start && end - start >= size) candidates.emplace_back(end - start, start);
        };
        auto gaps_around = [&](std::set<Block>::iterator it) {
            // The gap before `it` and the gap after it (it is in the set).
            const std::uint64_t prev_end = it == alive.begin() ? 0 : std::prev(it)->end;
            add_gap(prev_end, it->start);
            auto next = std::next(it);
            add_gap(it->end, next == alive.end() ? kOpen : next->start);
        };
        // Initial set: all its gaps.
        if (alive.empty()) add_gap(0, kOpen);
        for (auto it = alive.begin(); it != alive.end(); ++it) gaps_around(it);
        std::size_t e = 0;
        while (e < events.size()) {
            const int op = events[e].first;
            for (; e < events.size() && events[e].first == op; ++e) {
                const std::size_t j = overlapping[static_cast<std::size_t>(std::abs(events[e].second) - 1)];
                const Block b{a.offsets[j], a.offsets[j] + records[j].bytes, j};
                if (events[e].second < 0) {
                    auto it = alive.find(b);
                    auto next = alive.erase(it);
                    // The merged gap between the neighbours.
                    const std::uint64_t prev_end = next == alive.begin() ? 0 : std::prev(next)->end;
                    add_gap(prev_end, next == alive.end() ? kOpen : next->start);
                } else {
                    gaps_around(alive.insert(b).first);
                }
            }
        }

        // Occupied bytes over the whole lifetime (merged), for the feasibility test.
        occupied.clear();
        for (std::size_t j : overlapping) occupied.emplace_back(a.offsets[j], a.offsets[j] + records[j].bytes);
        std::sort(occupied.begin(), occupied.end());
        std::size_t m = 0;
        for (std::size_t k = 0; k < occupied.size(); ++k) {
            if (m > 0 && occupied[k].first < occupied[m - 1].second)
                occupied[m - 1].second = std::max(occupied[m - 1].second, occupied[k].second);
            else
                occupied[m++] = occupied[k];
        }
        occupied.resize(m);
        auto feasible = [&](std::uint64_t start) {
            if (size == 0) return true;
            // First merged block ending after `start`.
            auto it = std::upper_bound(occupied.begin(), occupied.end(), start,
                                       [](std::uint64_t s, const auto& blk) { return s < blk.second; });
            return it == occupied.end() || it->first >= start + size;
        };
        std::sort(candidates.begin(), candidates.end());
        std::uint64_t offset = kOpen;
        for (const auto& [len, start] : candidates)
            if (feasible(start)) {
                offset = start;
                break;
            }
        if (offset == kOpen) offset = occupied.empty() ? 0 : align_up(occupied.back().second, align);  // cannot happen: tails fit
        a.offsets[i] = offset;
        a.total = std::max(a.total, offset + size);
        placed.push_back(i);
    }
    return a;
}

OffsetAssignment peer_heuristic(const std::vector<UsageRecord>& records, const PeerHeuristicOptions& options) {
    std::vector<std::size_t> order = peer_order(records);
    OffsetAssignment best = peer_place_in_order(records, order, options.align);
    if (options.iterations <= 0 || records.size() < 2) return best;
    std::mt19937_64 rng(options.seed);
    std::uniform_int_distribution<std::size_t> pick(0, records.size() - 1);
    for (int round = 0; round < options.iterations; ++round) {
        std::vector<std::pair<std::size_t, std::size_t>> swaps;
        for (std::size_t s = 0; s < std::max<std::size_t>(1, options.swaps_per_round); ++s) {
            const std::size_t x = pick(rng), y = pick(rng);
            std::swap(order[x], order[y]);
            swaps.emplace_back(x, y);
        }
        OffsetAssignment trial = peer_place_in_order(records, order, options.align);
        if (trial.total < best.total) {
            best = std::move(trial);
        } else {
            for (auto it = swaps.rbegin(); it != swaps.rend(); ++it) std::swap(order[it->first], order[it->second]);
        }
    }
    return best;
}

}  // namespace memsim::plan
