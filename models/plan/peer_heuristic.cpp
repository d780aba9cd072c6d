#include "models/plan/peer_heuristic.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

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
                                     std::uint64_t align, bool front_gap) {
    OffsetAssignment a;
    a.offsets.assign(records.size(), 0);
    // Placed tensors (of nonzero size) by address: every per-tensor list below is then
    // built already sorted, and sorted vectors beat trees at these sizes.
    std::vector<Block> placed;
    placed.reserve(records.size());
    std::vector<Block> overlapping;                                   // by address
    std::vector<Block> alive;                                         // by address
    std::vector<std::pair<int, int>> events;  // (op, +index+1 insert / -(index+1) remove)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> candidates;  // (gap length, start)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> occupied;    // merged [start, end)
    for (std::size_t i : order) {
        const UsageRecord& r = records[i];
        const std::uint64_t size = r.bytes;
        overlapping.clear();
        for (const Block& p : placed)
            if (intervals_intersect(r, records[p.record])) overlapping.push_back(p);

        // Sweep the lifetime: the set alive at each operator changes only where an
        // overlapping tensor starts or ends; every gap that appears is a candidate.
        candidates.clear();
        events.clear();
        alive.clear();
        for (std::size_t k = 0; k < overlapping.size(); ++k) {
            const UsageRecord& o = records[overlapping[k].record];
            if (o.first_op <= r.first_op) alive.push_back(overlapping[k]);
            else events.emplace_back(o.first_op, static_cast<int>(k) + 1);
            if (o.last_op < r.last_op) events.emplace_back(o.last_op + 1, -static_cast<int>(k) - 1);
        }
        // Removals before insertions at the same op: the set at op x is what is alive there.
        std::sort(events.begin(), events.end());
        // `first`: the gap before the first placed tensor (none of it open).
        auto add_gap = [&](std::uint64_t start, std::uint64_t end, bool first = false) {
            if (first && !front_gap && end != kOpen) return;
            start = align_up(start, align);
            if (end == kOpen) candidates.emplace_back(kOpen, start);
            else if (end >= start && end - start >= size) candidates.emplace_back(end - start, start);
        };
        // The gaps on both sides of the block at `at` (it is in `alive`).
        auto gaps_around = [&](std::size_t at) {
            const bool first = at == 0;
            add_gap(first ? 0 : alive[at - 1].end, alive[at].start, first);
            add_gap(alive[at].end, at + 1 == alive.size() ? kOpen : alive[at + 1].start);
        };
        // Initial set: all its gaps.
        if (alive.empty()) add_gap(0, kOpen);
        for (std::size_t at = 0; at < alive.size(); ++at) gaps_around(at);
        std::size_t e = 0;
        while (e < events.size()) {
            const int op = events[e].first;
            for (; e < events.size() && events[e].first == op; ++e) {
                const Block& b = overlapping[static_cast<std::size_t>(std::abs(events[e].second) - 1)];
                const auto pos = std::lower_bound(alive.begin(), alive.end(), b);
                if (events[e].second < 0) {
                    // The merged gap between the neighbours.
                    const auto next = alive.erase(pos);
                    const bool first = next == alive.begin();
                    add_gap(first ? 0 : std::prev(next)->end, next == alive.end() ? kOpen : next->start, first);
                } else {
                    const auto at = static_cast<std::size_t>(pos - alive.begin());
                    alive.insert(pos, b);
                    gaps_around(at);
                }
            }
        }

        // Occupied bytes over the whole lifetime (merged), for the feasibility test.
        occupied.clear();
        for (const Block& o : overlapping) {
            if (!occupied.empty() && o.start < occupied.back().second)
                occupied.back().second = std::max(occupied.back().second, o.end);
            else
                occupied.emplace_back(o.start, o.end);
        }
        auto feasible = [&](std::uint64_t start) {
            if (size == 0) return true;
            // First merged block ending after `start`.
            auto it = std::upper_bound(occupied.begin(), occupied.end(), start,
                                       [](std::uint64_t s, const auto& blk) { return s < blk.second; });
            return it == occupied.end() || it->first >= start + size;
        };
        // The first feasible candidate in (gap length, start) order: the smallest feasible
        // one, found without sorting (only a candidate that beats the best so far is tested).
        std::pair<std::uint64_t, std::uint64_t> best{kOpen, kOpen};
        bool found = false;
        for (const auto& c : candidates)
            if ((!found || c < best) && feasible(c.second)) {
                best = c;
                found = true;
            }
        std::uint64_t offset = found ? best.second : kOpen;
        if (offset == kOpen) offset = occupied.empty() ? 0 : align_up(occupied.back().second, align);  // cannot happen: tails fit
        a.offsets[i] = offset;
        a.total = std::max(a.total, offset + size);
        if (size > 0) {
            const Block b{offset, offset + size, i};
            placed.insert(std::upper_bound(placed.begin(), placed.end(), b), b);
        }
    }
    return a;
}

OffsetAssignment peer_heuristic(const std::vector<UsageRecord>& records, const PeerHeuristicOptions& options) {
    std::vector<std::size_t> order = peer_order(records);
    OffsetAssignment best = peer_place_in_order(records, order, options.align, options.front_gap);
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
        OffsetAssignment trial = peer_place_in_order(records, order, options.align, options.front_gap);
        if (trial.total < best.total) {
            best = std::move(trial);
        } else {
            for (auto it = swaps.rbegin(); it != swaps.rend(); ++it) std::swap(order[it->first], order[it->second]);
        }
    }
    return best;
}

}  // namespace memsim::plan
