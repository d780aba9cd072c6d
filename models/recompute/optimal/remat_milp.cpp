#include "models/recompute/optimal/remat_milp.h"

#include <stdexcept>

#include <fmt/format.h>

namespace memsim::optimal {

namespace {

constexpr int kFixed0 = kFixedZero;
constexpr int kFixed1 = kFixedOne;

using Terms = std::vector<std::pair<int, double>>;

// A value whose copies are never read and need not survive: no plan keeps it.
bool never_needed(const Value& v) { return v.readers.empty() && !v.keep_to_end; }

// Worth recomputing: some output is read, or must be resident at the end.
bool worth_recomputing(const RematProblem& p, int op) {
    for (int v : p.ops[op].outputs)
        if (!never_needed(p.values[v])) return true;
    return false;
}

// S's state for value v at stage k (k > origin): a column to create, or fixed.
int s_state(const RematProblem& p, int v, int k) {
    const Value& value = p.values[v];
    if (never_needed(value)) return kFixed0;
    if (!value.recomputable && value.keep_to_end) return kFixed1;
    if (k == 0 && value.origin == kBeforeFirstOp) return kFixed1;  // resident from the start
    if (!value.recomputable) return 0;
    if (value.freed_by >= 0 && k == value.freed_by + 1) return kFixed0;  // its release list freed it
    return 0;
}

int first_stage(const Value& v) { return v.origin + 1; }

}  // namespace

int RematMilp::s(int v, int k) const {
    const int i = k - s_first_stage[static_cast<std::size_t>(v)];
    const auto& cols = s_col[static_cast<std::size_t>(v)];
    if (i < 0 || i >= static_cast<int>(cols.size())) return kFixed0;
    return cols[static_cast<std::size_t>(i)];
}

std::size_t estimated_columns(const RematProblem& p) {
    const int n = p.op_count();
    std::size_t columns = 0;
    int recomputable_before = 0;
    for (int k = 0; k < n; ++k) {
        columns += static_cast<std::size_t>(recomputable_before) + 1;  // R, U per slot (+ the stage's start)
        columns += static_cast<std::size_t>(recomputable_before);
        if (p.ops[k].recomputable() && worth_recomputing(p, k)) ++recomputable_before;
    }
    for (const Value& v : p.values) columns += static_cast<std::size_t>(n - first_stage(v));
    // F: per stage, the reads and outputs of every op that may be recomputed before it.
    std::size_t touches = 0;
    for (int k = 0; k < n; ++k) {
        columns += touches;
        if (p.ops[k].recomputable() && worth_recomputing(p, k)) touches += p.ops[k].inputs.size() + p.ops[k].outputs.size();
    }
    return columns;
}

RematMilp build_remat_milp(const RematProblem& p, std::size_t max_columns) {
    const std::size_t estimate = estimated_columns(p);
    if (estimate > max_columns)
        throw std::length_error(fmt::format("the program would have about {} columns (the limit is {})", estimate, max_columns));
    const int n = p.op_count();
    const auto budget = static_cast<double>(p.budget);
    RematMilp m;
    Milp& milp = m.milp;
    m.r_col.assign(static_cast<std::size_t>(n), {});
    std::vector<int> candidates;  // ops worth recomputing, ascending
    for (int k = 0; k < n; ++k) {
        m.r_col[k].assign(static_cast<std::size_t>(k), -1);
        for (int j : candidates) m.r_col[k][j] = milp.add_column(0, 1, p.ops[j].cost_ms, true);
        if (p.ops[k].recomputable() && worth_recomputing(p, k)) candidates.push_back(k);
    }
    const auto R = [&](int k, int j) { return j < k ? m.r_col[k][j] : -1; };
    m.s_col.resize(p.values.size());
    m.s_first_stage.resize(p.values.size());
    for (std::size_t v = 0; v < p.values.size(); ++v) {
        m.s_first_stage[v] = first_stage(p.values[v]);
        for (int k = m.s_first_stage[v]; k < n; ++k) {
            const int state = s_state(p, static_cast<int>(v), k);
            m.s_col[v].push_back(state == 0 ? milp.add_column(0, 1, 0, true) : state);
        }
    }
    // Whether v is resident during stage k without any decision (fixed 1).
    const auto S = [&](int v, int k) { return m.s(v, k); };

    for (int k = 0; k < n; ++k) {
        // (a) Every read finds its value: kept from before the stage, or recomputed earlier in it.
        const auto needs = [&](int j, int v, int reader_col) {
            const Value& value = p.values[v];
            if (value.origin == k && !value.recomputable) return;  // arrives with op k's Compute
            const int s = S(v, k);
            if (s == kFixed1) return;
            Terms t;
            if (s >= 0) t.emplace_back(s, 1.0);
            if (value.recomputable && value.origin < j) {
                const int r = R(k, value.origin);
                if (r >= 0) t.emplace_back(r, 1.0);
            }
            if (reader_col >= 0) t.emplace_back(reader_col, -1.0);
            milp.add_row(std::move(t), reader_col >= 0 ? 0.0 : 1.0, kInfinity);
        };
        for (int j : candidates) {
            if (j >= k) break;
            for (int v : p.ops[j].inputs) needs(j, v, R(k, j));
        }
        for (int v : p.ops[k].inputs) needs(k, v, -1);
    }
    for (std::size_t vi = 0; vi < p.values.size(); ++vi) {
        const int v = static_cast<int>(vi);
        const Value& value = p.values[vi];
        for (int k = m.s_first_stage[vi]; k < n; ++k) {
            const int s = S(v, k);
            const int r = value.recomputable ? R(k, value.origin) : -1;
            // (b) Kept into stage k+1 only if resident in stage k (kept, or recomputed in it).
            if (k + 1 < n) {
                const int next = S(v, k + 1);
                if (next >= 0 && s != kFixed1) {
                    Terms t{{next, 1.0}};
                    if (s >= 0) t.emplace_back(s, -1.0);
                    if (r >= 0) t.emplace_back(r, -1.0);
                    milp.add_row(std::move(t), -kInfinity, 0.0);
                }
            }
            // (c) Kept or recomputed, not both (a recomputation re-creates it).
            if (s >= 0 && r >= 0) milp.add_row({{s, 1.0}, {r, 1.0}}, -kInfinity, 1.0);
        }
        // (d) A result is resident when the iteration ends.
        if (value.recomputable && value.keep_to_end && value.origin < n - 1) {
            const int s = S(v, n - 1);
            Terms t;
            if (s >= 0) t.emplace_back(s, 1.0);
            if (const int r = R(n - 1, value.origin); r >= 0) t.emplace_back(r, 1.0);
            if (s != kFixed1) milp.add_row(std::move(t), 1.0, kInfinity);
        }
    }
    // (e) Memory, slot by slot: U after each slot, F the values freed after it.
    for (int k = 0; k < n; ++k) {
        double fixed = 0.0;
        Terms start;
        for (std::size_t v = 0; v < p.values.size(); ++v) {
            if (m.s_first_stage[v] > k) continue;
            const int s = S(static_cast<int>(v), k);
            const auto bytes = static_cast<double>(p.values[v].bytes);
            if (s == kFixed1) fixed += bytes;
            else if (s >= 0 && bytes > 0) start.emplace_back(s, -bytes);
        }
        int u_prev = milp.add_column(-kInfinity, kInfinity, 0, false);
        start.emplace_back(u_prev, 1.0);
        milp.add_row(std::move(start), fixed, fixed);
        for (int j : candidates) {
            if (j >= k) break;
            const int r = R(k, j);
            const OpInfo& op = p.ops[j];
            milp.add_row({{u_prev, 1.0}, {r, static_cast<double>(op.recompute_bytes)}}, -kInfinity, budget);
            const int u = milp.add_column(-kInfinity, kInfinity, 0, false);
            Terms next{{u, 1.0}, {u_prev, -1.0}};
            if (op.output_bytes > 0) next.emplace_back(r, -static_cast<double>(op.output_bytes));
            const auto freeable = [&](int v) {
                const Value& value = p.values[v];
                if (value.bytes == 0 || (!value.recomputable && value.keep_to_end)) return;
                for (int reader : value.readers)
                    if (reader == k) return;  // op k reads it: resident to the end of the stage
                if (k == n - 1 && value.keep_to_end) return;
                const int keep = k + 1 < n ? S(v, k + 1) : kFixed0;
                if (keep == kFixed1) return;
                const int f = milp.add_column(0, 1, 0, false);
                milp.add_row({{f, 1.0}, {r, -1.0}}, -kInfinity, 0.0);
                for (int reader : value.readers)
                    if (reader > j && reader < k)
                        if (const int later = R(k, reader); later >= 0) milp.add_row({{f, 1.0}, {later, 1.0}}, -kInfinity, 1.0);
                if (keep >= 0) milp.add_row({{f, 1.0}, {keep, 1.0}}, -kInfinity, 1.0);
                next.emplace_back(f, static_cast<double>(value.bytes));
            };
            for (int v : op.inputs) freeable(v);
            for (int v : op.outputs) freeable(v);
            milp.add_row(std::move(next), 0.0, 0.0);
            u_prev = u;
        }
        milp.add_row({{u_prev, 1.0}}, -kInfinity, budget - static_cast<double>(p.ops[k].compute_bytes));
    }
    return m;
}

std::vector<double> milp_start(const RematProblem& p, const RematMilp& m, const Schedule& s) {
    std::vector<double> x(static_cast<std::size_t>(m.milp.columns()), 0.0);
    for (int k = 0; k < p.op_count(); ++k)
        for (int j : s.recompute[k])
            if (const int c = m.r_col[k][j]; c >= 0) x[static_cast<std::size_t>(c)] = 1.0;
    const std::vector<Run> runs = schedule_runs(p, s);
    for (const Residency& res : residencies(p, s, runs)) {
        if (res.last_read == -1) continue;  // never read: released before op 0
        const int from = res.created < 0 ? 0 : runs[res.created].stage + 1;
        const int to = res.last_read == kEndOfIteration ? p.op_count() - 1 : runs[res.last_read].stage;
        for (int k = from; k <= to; ++k)
            if (const int c = m.s(res.value, k); c >= 0) x[static_cast<std::size_t>(c)] = 1.0;
    }
    return x;
}

Schedule schedule_of(const RematProblem& p, const RematMilp& m, const std::vector<double>& solution) {
    Schedule s = empty_schedule(p);
    for (int k = 0; k < p.op_count(); ++k)
        for (int j = 0; j < k; ++j)
            if (const int c = m.r_col[k][j]; c >= 0 && solution[static_cast<std::size_t>(c)] > 0.5) s.recompute[k].push_back(j);
    return s;
}

}  // namespace memsim::optimal
