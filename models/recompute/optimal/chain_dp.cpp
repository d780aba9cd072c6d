#include "models/recompute/optimal/chain_dp.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "models/recompute/optimal/cpu_time.h"

namespace memsim::optimal {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxCells = 25'000'000;  // 200 MB of costs

bool fixed_value(const Value& v) { return !v.recomputable && v.keep_to_end; }
bool never_read(const Value& v) { return v.readers.empty() && !v.keep_to_end; }

// The recursion's tables and the quantities its checks use. Positions run from -1 (no
// value: op 0 needs nothing) to H, the highest forward value a backward op reads; a
// position s is stored at s + 1.
struct ChainDp {
    const RematProblem& p;
    const Chain& c;
    int H = -1, P = 1;
    std::uint64_t unit = 1, budget = 0;
    std::size_t U = 0;                        // held bytes range over 0..U units
    std::vector<std::uint64_t> bytes, units;  // per position (index s + 1)
    std::vector<double> cost_prefix;          // cost of F_0..F_{i-1} at i
    std::vector<std::uint64_t> base;          // per stage: resident at its start besides forward values
    std::vector<std::uint64_t> group_need;    // per group: its op's Compute, besides what is held
    std::vector<std::size_t> gap_max_units;   // per group: most held units the stages before it allow (+1: none)
    std::vector<char> top_member;             // per position index: the highest of its group
    std::vector<std::vector<double>> C;       // [s + 1][t] -> per held units: recomputation cost
    std::vector<double> T;                    // [(s + 1) * (U + 1) + u]
    bool after_last_ok = true;

    ChainDp(const RematProblem& problem, const Chain& chain) : p(problem), c(chain) {
        H = c.highest_read();
        P = H + 2;
        budget = p.budget;
        bytes.assign(static_cast<std::size_t>(P), 0);
        std::uint64_t g = 0, total = 0;
        for (int s = 0; s <= H; ++s) {
            bytes[static_cast<std::size_t>(s) + 1] = p.values[c.value[s]].bytes;
            g = std::gcd(g, bytes[static_cast<std::size_t>(s) + 1]);
            total += bytes[static_cast<std::size_t>(s) + 1];
        }
        unit = g == 0 ? 1 : g;
        U = static_cast<std::size_t>(std::min(budget / unit, total / unit));
        units.resize(bytes.size());
        for (std::size_t i = 0; i < bytes.size(); ++i) units[i] = bytes[i] / unit;
        cost_prefix.assign(static_cast<std::size_t>(c.length) + 1, 0.0);
        for (int i = 0; i < c.length; ++i) cost_prefix[static_cast<std::size_t>(i) + 1] = cost_prefix[i] + p.ops[i].cost_ms;
        top_member.assign(static_cast<std::size_t>(P), 0);
        for (const ChainGroup& grp : c.groups) top_member[static_cast<std::size_t>(grp.hi) + 1] = 1;
        stage_bytes();
    }

    [[nodiscard]] int group(int s) const { return c.group_of[static_cast<std::size_t>(s)]; }
    // x_s's bytes, for any forward position (-1: none).
    [[nodiscard]] std::uint64_t a(int s) const { return s < 0 ? 0 : p.values[c.value[static_cast<std::size_t>(s)]].bytes; }
    [[nodiscard]] std::uint64_t need(int k) const { return base[static_cast<std::size_t>(k)] + p.ops[k].compute_bytes; }
    // Most held units with `extra` bytes besides them, or none.
    [[nodiscard]] std::ptrdiff_t max_units(std::uint64_t extra) const {
        if (extra > budget) return -1;
        return static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(U, (budget - extra) / unit));
    }

    void stage_bytes() {
        const int n = p.op_count();
        std::vector<std::int64_t> delta(static_cast<std::size_t>(n) + 1, 0);
        std::vector<char> forward(p.values.size(), 0);
        for (int v : c.value) forward[static_cast<std::size_t>(v)] = 1;
        for (std::size_t v = 0; v < p.values.size(); ++v) {
            const Value& value = p.values[v];
            if (forward[v] || never_read(value)) continue;
            const int from = value.origin + 1;
            const int to = value.keep_to_end ? n - 1 : (value.readers.empty() ? value.origin : value.readers.back());
            if (from > to) continue;
            delta[static_cast<std::size_t>(from)] += static_cast<std::int64_t>(value.bytes);
            delta[static_cast<std::size_t>(to) + 1] -= static_cast<std::int64_t>(value.bytes);
        }
        base.assign(static_cast<std::size_t>(n), 0);
        std::int64_t live = 0;
        for (int k = 0; k < n; ++k) base[static_cast<std::size_t>(k)] = static_cast<std::uint64_t>(live += delta[k]);
        int previous = c.length - 1;
        for (const ChainGroup& grp : c.groups) {
            group_need.push_back(need(grp.stage));
            std::uint64_t gap = 0;
            for (int k = previous + 1; k < grp.stage; ++k) gap = std::max(gap, need(k));
            const std::ptrdiff_t m = max_units(gap);
            gap_max_units.push_back(m < 0 ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(m));
            previous = grp.stage;
        }
        for (int k = previous + 1; k < n; ++k)
            if (need(k) > budget) after_last_ok = false;
    }

    // Whether held units u pass the stages before the group of position t - 1 (an entry
    // into a new group); a lower member of a group is held with its top member.
    [[nodiscard]] bool entry_ok(int t, std::size_t u) const {
        if (!top_member[static_cast<std::size_t>(t)]) return true;  // t - 1 is a lower member (see below)
        const std::size_t m = gap_max_units[static_cast<std::size_t>(group(t - 1))];
        return m != std::numeric_limits<std::size_t>::max() && u <= m;
    }
    [[nodiscard]] bool valid_split(int s, int split) const {
        const ChainGroup& grp = c.groups[static_cast<std::size_t>(group(split))];
        return split == grp.lo || (s >= 0 && split == s + 1 && group(s) == group(split));
    }
    [[nodiscard]] std::vector<double>& table(int s, int t) { return C[static_cast<std::size_t>(s + 1) * P + t]; }
    [[nodiscard]] double entry(int s, int t, std::size_t u) {
        if (!top_member[static_cast<std::size_t>(t)]) return 0.0;  // a lower member: served with its group's top
        if (!entry_ok(t, u)) return kInf;
        return table(s, t)[u];
    }
    [[nodiscard]] double inner(int s, int t, std::size_t u) {
        if (u > U) return kInf;
        return table(s, t)[u];
    }

    std::size_t work() const {
        // Valid splits in (s, t - 1]: the lowest members of groups there, and s + 1 when it
        // shares s's group.
        std::vector<std::size_t> lows(static_cast<std::size_t>(H) + 2, 0);  // lows[x]: lowest members below x
        for (int q = 0; q <= H; ++q)
            lows[static_cast<std::size_t>(q) + 1] =
                lows[static_cast<std::size_t>(q)] + (c.groups[static_cast<std::size_t>(group(q))].lo == q ? 1 : 0);
        std::size_t total = 0;
        for (int s = -1; s <= H; ++s)
            for (int t = s + 1; t <= H + 1; ++t) {
                std::size_t splits = lows[static_cast<std::size_t>(t)] - lows[static_cast<std::size_t>(s + 1)];
                if (s >= 0 && s + 1 <= t - 1 && group(s) == group(s + 1)) ++splits;
                total += (splits + 1) * (U + 1);
            }
        return total;
    }

    void fill() {
        C.assign(static_cast<std::size_t>(P) * P, {});
        for (int d = 1; d <= H + 2; ++d)
            for (int s = -1; s + d <= H + 1; ++s) {
                const int t = s + d;
                if (t < 1) continue;  // nothing below position 0 to serve
                std::vector<double>& out = table(s, t);
                out.assign(U + 1, kInf);
                const int top = t - 1;
                const ChainGroup& grp = c.groups[static_cast<std::size_t>(group(top))];
                if (top < grp.hi) continue;  // never asked: lower members are served with their top
                if (d == 1) {  // x_s is its group's top member, held
                    const std::ptrdiff_t m = max_units(group_need[static_cast<std::size_t>(group(top))]);
                    for (std::ptrdiff_t u = 0; u <= m; ++u) out[static_cast<std::size_t>(u)] = 0.0;
                    continue;
                }
                std::uint64_t slot = 0;  // the worst recomputation slot of F_{s+1}..F_{split}
                for (int split = s + 1; split <= top; ++split) {
                    slot = std::max(slot, (split - 1 > s ? a(split - 1) : 0) + p.ops[split].recompute_bytes);
                    if (!valid_split(s, split)) continue;
                    const std::ptrdiff_t m = max_units(base[static_cast<std::size_t>(grp.stage)] + slot);
                    const double forward = cost_prefix[static_cast<std::size_t>(split) + 1] - cost_prefix[static_cast<std::size_t>(s) + 1];
                    const std::size_t add = units[static_cast<std::size_t>(split) + 1];
                    for (std::ptrdiff_t ui = 0; ui <= m; ++ui) {
                        const auto u = static_cast<std::size_t>(ui);
                        const double cand = forward + inner(split, t, u + add) + entry(s, split, u);
                        if (cand < out[u]) out[u] = cand;
                    }
                }
            }
        T.assign(static_cast<std::size_t>(P) * (U + 1), kInf);
        for (int s = H; s >= -1; --s)
            for (std::size_t u = 0; u <= U; ++u) T[static_cast<std::size_t>(s + 1) * (U + 1) + u] = top_level(s, u, nullptr);
    }

    // The original forward pass from x_s (held), as the value of T(s, u); with `plan`, the
    // choice that gives it is followed into the schedule.
    double top_level(int s, std::size_t u, Schedule* plan) {
        double best = kInf;
        int choice = -2;
        std::uint64_t slot = 0;
        const auto original = [&](int j) { return need(j) + (j - 1 > s ? a(j - 1) : 0); };
        for (int split = s + 1; split <= H; ++split) {
            slot = std::max(slot, original(split));
            if (!valid_split(s, split)) continue;
            if (max_units(slot) < static_cast<std::ptrdiff_t>(u)) continue;
            const std::size_t up = u + units[static_cast<std::size_t>(split) + 1];
            if (up > U) continue;
            const double cand = T[static_cast<std::size_t>(split + 1) * (U + 1) + up] + entry(s, split, u);
            if (cand < best) {
                best = cand;
                choice = split;
            }
        }
        std::uint64_t finish = slot;
        for (int j = std::max(s + 1, H + 1); j < c.length; ++j) finish = std::max(finish, original(j));
        if (max_units(finish) >= static_cast<std::ptrdiff_t>(u)) {  // no more checkpoints
            const double cand = entry(s, H + 1, u);
            if (cand < best) {
                best = cand;
                choice = -1;
            }
        }
        if (plan && best < kInf) {
            if (choice == -1) {
                follow_entry(s, H + 1, u, *plan);
            } else {
                top_level(choice, u + units[static_cast<std::size_t>(choice) + 1], plan);
                follow_entry(s, choice, u, *plan);
            }
        }
        return best;
    }

    void follow_entry(int s, int t, std::size_t u, Schedule& plan) {
        if (!top_member[static_cast<std::size_t>(t)]) return;
        follow_inner(s, t, u, plan);
    }

    void follow_inner(int s, int t, std::size_t u, Schedule& plan) {
        if (t - s == 1) return;
        const double target = table(s, t)[u];
        const int top = t - 1;
        const ChainGroup& grp = c.groups[static_cast<std::size_t>(group(top))];
        std::uint64_t slot = 0;
        for (int split = s + 1; split <= top; ++split) {
            slot = std::max(slot, (split - 1 > s ? a(split - 1) : 0) + p.ops[split].recompute_bytes);
            if (!valid_split(s, split)) continue;
            if (max_units(base[static_cast<std::size_t>(grp.stage)] + slot) < static_cast<std::ptrdiff_t>(u)) continue;
            const double forward = cost_prefix[static_cast<std::size_t>(split) + 1] - cost_prefix[static_cast<std::size_t>(s) + 1];
            const std::size_t add = units[static_cast<std::size_t>(split) + 1];
            if (forward + inner(split, t, u + add) + entry(s, split, u) != target) continue;
            for (int j = s + 1; j <= split; ++j) plan.recompute[static_cast<std::size_t>(grp.stage)].push_back(j);
            follow_inner(split, t, u + add, plan);
            follow_entry(s, split, u, plan);
            return;
        }
    }
};

}  // namespace

std::optional<Chain> chain_of(const RematProblem& p) {
    const Workload& w = *p.workload;
    const int n = p.op_count();
    const int L = w.forward_end;
    if (L < 1 || L > n) return std::nullopt;
    Chain c;
    c.length = L;
    std::vector<int> position(p.values.size(), -1);
    for (int i = 0; i < L; ++i) {
        const OpInfo& op = p.ops[i];
        if (op.outputs.size() != 1) return std::nullopt;
        const int x = op.outputs.front();
        if (p.values[x].keep_to_end) return std::nullopt;
        for (int v : op.created)
            if (v != x && !fixed_value(p.values[v])) return std::nullopt;
        for (int v : op.inputs)
            if (!fixed_value(p.values[v]) && !(i > 0 && v == c.value.back())) return std::nullopt;
        position[static_cast<std::size_t>(x)] = i;
        c.value.push_back(x);
    }
    for (const Value& v : p.values)
        if (!v.recomputable && !v.keep_to_end && !never_read(v)) return std::nullopt;  // a source the plan must free
    // Backward ops: the forward values each reads, a range; ranges in reverse order.
    int below = L;  // every later range lies below this position
    for (int k = L; k < n; ++k) {
        int lo = L, hi = -1;
        for (int v : p.ops[k].inputs) {
            const int pos = position[static_cast<std::size_t>(v)];
            if (pos < 0) continue;
            lo = std::min(lo, pos);
            hi = std::max(hi, pos);
        }
        if (hi < 0) continue;
        std::size_t count = 0;
        for (int v : p.ops[k].inputs) count += position[static_cast<std::size_t>(v)] >= 0 ? 1 : 0;
        if (count != static_cast<std::size_t>(hi - lo + 1) || hi >= below) return std::nullopt;
        // Several values read together: only right after the forward pass, the last ones.
        if (hi > lo && (!c.groups.empty() || hi != L - 1 || k != L)) return std::nullopt;
        c.groups.push_back({lo, hi, k});
        below = lo;
    }
    if (c.groups.empty() || below != 0) return std::nullopt;  // every value up to the highest read is read
    c.group_of.assign(static_cast<std::size_t>(c.highest_read()) + 1, -1);
    for (std::size_t g = 0; g < c.groups.size(); ++g)
        for (int s = c.groups[g].lo; s <= c.groups[g].hi; ++s) {
            c.group_of[static_cast<std::size_t>(s)] = static_cast<int>(g);
            const Value& x = p.values[c.value[s]];
            if (x.freed_by >= 0 && x.freed_by < c.groups[g].stage) return std::nullopt;
        }
    return c;
}

std::size_t chain_work(const RematProblem& p, const Chain& c) { return ChainDp(p, c).work(); }

std::optional<ChainSolution> solve_chain(const RematProblem& p, const Chain& c, std::size_t max_work) {
    const double began = cpu_seconds();
    ChainDp dp(p, c);
    ChainSolution out;
    out.cells = static_cast<std::size_t>(dp.P) * (dp.P + 1) / 2 * (dp.U + 1);
    if (out.cells > kMaxCells) return std::nullopt;
    out.work = dp.work();
    if (out.work > max_work) return std::nullopt;
    if (dp.after_last_ok) {
        dp.fill();
        const double best = dp.T[0];
        if (best < kInf) {
            Schedule s = empty_schedule(p);
            dp.top_level(-1, 0, &s);
            for (auto& ops : s.recompute) std::sort(ops.begin(), ops.end());
            out.schedule = std::move(s);
            out.recompute_ms = best;
        }
    }
    out.seconds = cpu_seconds() - began;
    return out;
}

}  // namespace memsim::optimal
