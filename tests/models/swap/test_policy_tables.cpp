// The policy tables of the swap side: every row is a name the parser accepts and --help
// lists, and the rules decide as worked out by hand from a fake view.
#include <catch2/catch.hpp>

#include <map>

#include "file_support.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/prefetch/reference_prefetch.h"
#include "models/swap/selection/swap_selection.h"
#include "models/swap/victim/victim_rule.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

namespace {

const char* kBase = "workload: {synthetic: mlp}\nplatform: {memory: {budget: 1GB}}\n";

// A disk and a compute timeline set by hand.
struct FakeQueue final : PrefetchView {
    double now = 10, free_at = 0;
    bool idle = true;
    std::map<int, double> op_ms_of, read_ms;
    std::map<int, bool> fits;
    std::map<int, std::uint64_t> bytes;
    std::map<int, std::int64_t> during, alloc;
    std::uint64_t live = 0;
    std::optional<std::uint64_t> budget, no_prefetch_peak;
    double now_ms() const override { return now; }
    int op_count() const override { return 9; }
    double group_read_ms_later(int consumer) const override { return read_ms.at(consumer); }
    std::uint64_t group_bytes(int consumer) const override { return bytes.count(consumer) ? bytes.at(consumer) : 0; }
    std::uint64_t live_bytes() const override { return live; }
    std::optional<std::uint64_t> budget_bytes() const override { return budget; }
    std::optional<std::uint64_t> no_prefetch_peak_bytes() const override { return no_prefetch_peak; }
    // Ops the test does not set plan nothing (a rule may read the whole plan up front).
    std::int64_t planned_live_during(int op) const override { return during.count(op) ? during.at(op) : 0; }
    std::int64_t op_allocation_bytes(int op) const override { return alloc.at(op); }
    double op_ms(int op) const override { return op_ms_of.at(op); }
    double compute_between(int from, int to) const override {
        double ms = 0;
        for (int k = from; k < to; ++k) ms += op_ms_of.at(k);
        return ms;
    }
    bool disk_idle() const override { return idle; }
    double disk_free_at_ms() const override { return free_at; }
    double group_read_ms(int consumer) const override { return read_ms.at(consumer); }
    bool group_fits(int consumer) const override { return fits.count(consumer) ? fits.at(consumer) : true; }
};

// How many groups from `op` on a rule issues in one round.
int issued(PrefetchRule& rule, const FakeQueue& q, int op, int last) {
    rule.begin(q, op);
    int group = op;
    while (group <= last && rule.issue_now(q, op, group)) ++group;
    return group - op;
}

std::unique_ptr<PrefetchRule> make_rule(const std::string& name, const ParamValues& given = {}) {
    const PrefetchRow* row = find_row(prefetch_rules(), name);
    return row->make(PolicyParams(row->params, given));
}

}  // namespace

TEST_CASE("policy tables: every row parses, an unknown name suggests the closest row") {
    for (const auto& row : swap_modes())
        CHECK(parse_scenario(kBase, "t.yaml", {"policy.swap.mode=" + std::string(row.name)}).policy.swap.mode == row.name);
    for (const auto& row : swap_selections())
        CHECK(parse_scenario(kBase, "t.yaml", {"policy.swap.select=" + std::string(row.name)}).policy.swap.select == row.name);
    for (const auto& row : semantics_table())
        CHECK(parse_scenario(kBase, "t.yaml", {"policy.semantics=" + std::string(row.name)}).policy.semantics == row.name);
    const Scenario lead_ms = parse_scenario(kBase, "t.yaml", {"policy.swap.prefetch=lead_ms:2ms"});
    CHECK(lead_ms.policy.swap.prefetch == "lead_ms");
    CHECK(lead_ms.policy.swap.prefetch_params == ParamValues{{"lead", 2.0}});
    CHECK_THROWS_WITH(parse_scenario(kBase, "t.yaml", {"policy.recompute.heuristic=dtrr"}),
                      Catch::Contains("--set 'policy.recompute.heuristic=dtrr': policy.recompute.heuristic: unknown value 'dtrr' (did you mean 'dtr'?)"));
    CHECK_THROWS_WITH(parse_scenario(kBase, "t.yaml", {"policy.allocator=poool"}),
                      Catch::Contains("--set 'policy.allocator=poool': policy.allocator: unknown value 'poool' (did you mean 'pool'?)"));
}

TEST_CASE("policy tables: run --help lists every swap mode, selection and prefetch rule with its summary") {
    const test::Outcome o = test::run_memsim("run --help");
    CHECK(o.code == 0);
    for (const auto& row : swap_modes()) CHECK_THAT(o.out, Catch::Contains(std::string(row.summary)));
    for (const auto& row : swap_selections()) CHECK_THAT(o.out, Catch::Contains(std::string(row.summary)));
    for (const auto& row : prefetch_rules()) CHECK_THAT(o.out, Catch::Contains(row_usage(row)));
}

TEST_CASE("prefetch rules: eager, lead_ops, lead_ms and just_in_time on a hand-set timeline") {
    // Ops 4..8 take 2 ms each; each group reads in 3 ms; the disk is free at 14 ms.
    FakeQueue q;
    for (int k = 4; k <= 8; ++k) q.op_ms_of[k] = 2.0, q.read_ms[k] = 3.0;
    q.idle = false;
    q.free_at = 14;
    CHECK(issued(*make_rule("eager"), q, 4, 8) == 5);
    CHECK(issued(*make_rule("lead_ops", {{"lead", std::uint64_t{2}}}), q, 4, 8) == 3);  // groups 4, 5, 6
    CHECK(issued(*make_rule("lead_ms", {{"lead", 4.0}}), q, 4, 8) == 3);                // 0, 2 and 4 ms ahead
    // just_in_time: group 5 is needed at 12; issued at the next start (12) it would end
    // at max(14, 12) + 3 = 17 > 12: now. Group 6 is needed at 14, 17 > 14: now. Group 7
    // (needed at 16, 17 > 16): now. Group 8 (needed at 18, 17 <= 18): it waits.
    CHECK(issued(*make_rule("just_in_time"), q, 4, 8) == 4);
    // The budget stops eager at the first group that does not fit (never the op's own).
    q.fits[4] = false;
    q.fits[6] = false;
    CHECK(issued(*make_rule("eager"), q, 4, 8) == 2);
}

TEST_CASE("prefetch rules: just_in_time sees the chain: a big read behind a small one makes both urgent") {
    // Ops 4..8, 2 ms each, now 10, disk free. Group 5 reads nothing, group 6 reads 8 ms
    // (needed at 14), 7 and 8 nothing. Latest starts, back from the end: L8 = 18, L7 = 16,
    // L6 = 14 - 8 = 6, L5 = min(12, 6) - 0 = 6. Waiting for the next start (12) misses
    // L5 and L6: groups 4, 5 and 6 now; 7 can wait (12 <= 16). Judging group 5 alone
    // (it would arrive at 12, in time) would have ended the round there.
    FakeQueue q;
    for (int k = 4; k <= 8; ++k) q.op_ms_of[k] = 2.0, q.read_ms[k] = 0.0;
    q.read_ms[6] = 8.0;
    q.free_at = 10;
    CHECK(issued(*make_rule("just_in_time"), q, 4, 8) == 3);
}

TEST_CASE("prefetch rules: budget issues in order of need while the predicted in-use bytes stay under the cap") {
    // At op 4: 600 B in use; the plan has 700, 800, 650, 900 B in use during ops 4..7, op 4
    // allocating 100 (so 600 before it: no deviation). Groups 5..8 allocate 100, 150, 50, 300.
    // Budget 1000. Group 5: during op 4, 700 + 100 = 800: issued (in use 700). Group 6:
    // op 4: 100 + 700 + 150 = 950; op 5: 100 + 800 - 100 (group 5 taken over) + 150 = 950:
    // issued (850). Group 7: 250 + 700 + 50 = 1000, 250 + 800 - 100 + 50 = 1000, 250 + 650 -
    // 250 + 50 = 700: issued (900). Group 8: 300 + 700 + 300 = 1300 > 1000: waits.
    FakeQueue q;
    for (int k = 4; k <= 8; ++k) q.op_ms_of[k] = 2.0, q.read_ms[k] = 1.0;
    q.during = {{4, 700}, {5, 800}, {6, 650}, {7, 900}};
    q.alloc = {{4, 100}, {5, 0}, {6, 0}, {7, 0}};
    q.bytes = {{5, 100}, {6, 150}, {7, 50}, {8, 300}};
    q.live = 600;
    q.budget = 1000;
    auto rule = make_rule("budget");
    auto round = [&](std::uint64_t live) {
        q.live = live;
        rule->begin(q, 4);
        int group = 4;
        while (group <= 8 && rule->issue_now(q, 4, group)) q.live += q.bytes[group], ++group;
        return group - 4;
    };
    CHECK(round(600) == 4);
    // No budget: the cap is the run's peak with every read on demand (900): group 6 would
    // reach 950. The rule asks the engine for that peak unless the user set a cap.
    q.budget.reset();
    q.no_prefetch_peak = 900;
    rule = make_rule("budget");
    CHECK(rule->caps_at_no_prefetch_peak());
    CHECK(round(600) == 2);
    // A user cap replaces it (1000: as the budget above, all four groups go).
    rule = make_rule("budget", {{"cap", std::uint64_t{1000}}});
    CHECK_FALSE(rule->caps_at_no_prefetch_peak());
    CHECK(round(600) == 4);
    // Its own reads always go, whatever the memory; with no cap known, nothing early.
    q.no_prefetch_peak = 0;
    rule = make_rule("budget");
    CHECK(round(600) == 1);
    q.no_prefetch_peak.reset();
    CHECK(round(600) == 1);
    CHECK_FALSE(make_rule("eager")->caps_at_no_prefetch_peak());
    CHECK_FALSE(make_rule("just_in_time")->caps_at_no_prefetch_peak());
}

TEST_CASE("prefetch rules: the reference rule issues while the disk is idle, then only what ends before the op") {
    // At 10 ms the disk is idle; op 4 lasts 5 ms (ends at 15). Group 4 (3 ms) goes while
    // idle (disk busy to 13), group 5 (1 ms) ends at 14 <= 15, group 6 (2 ms) would end
    // at 16 > 15.
    FakeQueue q;
    q.op_ms_of[4] = 5.0;
    q.read_ms = {{4, 3.0}, {5, 1.0}, {6, 2.0}, {7, 0.5}};
    auto rule = make_reference_prefetch();
    CHECK(issued(*rule, q, 4, 7) == 2);
    // A busy disk (free at 20 > now): nothing in the idle phase, and nothing ends by 15.
    q.idle = false;
    q.free_at = 20;
    CHECK(issued(*rule, q, 4, 7) == 0);
}

TEST_CASE("victim rules: budget scores size x idle time, fixed_buffer puts tensors with no forward use first") {
    struct FakeVictims final : VictimView {
        Workload w;
        std::map<TensorId, double> idle_ms;
        std::map<TensorId, int> next_op;
        const Workload& workload() const override { return w; }
        double ms_until_next_use(TensorId t, int /*op*/) const override { return idle_ms.at(t); }
        std::optional<int> next_use_op(TensorId t) const override {
            if (!next_op.count(t)) return std::nullopt;
            return next_op.at(t);
        }
    } v;
    v.w.forward_end = 10;
    v.w.tensors.resize(3);
    v.w.tensors[0].bytes = 100, v.w.tensors[1].bytes = 300, v.w.tensors[2].bytes = 200;
    v.idle_ms = {{0, 5.0}, {1, 1.0}, {2, 2.0}};      // scores 500, 300, 400
    v.next_op = {{0, 12}, {1, 3}, {2, 4}};           // only tensor 0 waits for the backward pass
    CHECK(make_victim_rule("budget")->choose(v, {0, 1, 2}, 0) == 0);
    CHECK(make_victim_rule("fixed_buffer")->choose(v, {0, 1, 2}, 0) == 0);
    v.next_op[0] = 5;                                // now all are used again in forward: largest
    CHECK(make_victim_rule("fixed_buffer")->choose(v, {0, 1, 2}, 0) == 1);
    CHECK_THROWS_AS(make_victim_rule("belady"), std::invalid_argument);
}
