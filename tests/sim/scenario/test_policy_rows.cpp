// Rows own their parameters: every parameter a row of a policy table declares is read in
// every form its family allows, range-checked, suggested on a typo and listed by --help,
// with nothing but the row saying so. The tests walk the tables, so a new row is
// covered as soon as it exists.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include <fmt/format.h>

#include "file_support.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/selection/swap_selection.h"
#include "models/workload/input_error.h"
#include "sim/scenario/policy_families.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

namespace {

const char* kPolicyBase = "workload: {synthetic: mlp}\nplatform: {memory: {budget: 1GB}}\n";

std::string policy_error_of(const std::vector<std::string>& sets) {
    try {
        parse_scenario(kPolicyBase, "t.yaml", sets);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

struct Example {
    std::string text;  // as a scenario writes it
    ParamValue value;  // as it is read
};

// A value inside the parameter's range, written as a scenario would.
Example valid_value(const ParamSpec& spec) {
    std::vector<Example> tries;
    switch (spec.kind) {
        case ParamKind::Count: tries = {{"3", std::uint64_t{3}}, {"1", std::uint64_t{1}}, {"0", std::uint64_t{0}}}; break;
        case ParamKind::Number: tries = {{"0.5", 0.5}, {"2", 2.0}, {"-1", -1.0}}; break;
        case ParamKind::Size: tries = {{"1KiB", std::uint64_t{1024}}, {"1B", std::uint64_t{1}}}; break;
        case ParamKind::Duration: tries = {{"2ms", 2.0}, {"1.5s", 1500.0}}; break;
        case ParamKind::Flag: tries = {{"true", true}}; break;
        case ParamKind::Text: tries = {{"x", std::string("x")}}; break;
    }
    for (const Example& e : tries)
        if (in_range(spec, e.value)) return e;
    FAIL("no example value in the range of " << spec.key);
    return {};
}

SwapSpec swap_of(const Scenario& s) { return s.policy.swap; }

}  // namespace

TEST_CASE("policy rows: every parameter of every row is read in each form its family allows") {
    int checked = 0;
    for (const PolicyFamily& family : policy_families()) {
        const std::string key(family.key);
        for (const FamilyRow& row : family.rows) {
            if (row.params.empty()) continue;
            const std::string name(row.name);
            INFO(key << ": " << name);
            // {NAME: {KEY: VALUE, ...}} with every parameter.
            std::vector<std::string> pairs;
            ParamValues all;
            for (const ParamSpec& spec : row.params) {
                const Example e = valid_value(spec);
                pairs.push_back(std::string(spec.key) + ": " + e.text);
                all[std::string(spec.key)] = e.value;
            }
            const std::string map = fmt::format("{{{}: {{{}}}}}", name, fmt::join(pairs, ", "));
            Scenario s = parse_scenario(kPolicyBase, "t.yaml", {key + "=" + map});
            CHECK(chosen_name(family, s.policy) == name);
            CHECK(given_params(family, s.policy) == all);
            // --set by dotted key, one parameter at a time.
            for (const ParamSpec& spec : row.params) {
                const bool others_required = std::any_of(row.params.begin(), row.params.end(), [&](const ParamSpec& other) {
                    return other.key != spec.key && other.required();
                });
                if (others_required) continue;  // alone it is incomplete: refused
                const Example e = valid_value(spec);
                s = parse_scenario(kPolicyBase, "t.yaml", {key + "." + name + "." + std::string(spec.key) + "=" + e.text});
                CHECK(given_params(family, s.policy) == ParamValues{{std::string(spec.key), e.value}});
            }
            if (row.params.size() == 1) {
                const ParamSpec& spec = row.params.front();
                const Example e = valid_value(spec);
                const ParamValues one{{std::string(spec.key), e.value}};
                for (const std::string& form : {name + ":" + e.text, "{" + name + ": " + e.text + "}"}) {
                    INFO(form);
                    s = parse_scenario(kPolicyBase, "t.yaml", {key + "=" + form});
                    CHECK(chosen_name(family, s.policy) == name);
                    CHECK(given_params(family, s.policy) == one);
                }
            }
            if (family.flat_params) {
                std::vector<std::string> sets{key + "=" + name};
                for (const std::string& pair : pairs) {
                    const auto colon = pair.find(": ");
                    sets.push_back(std::string(parent_key(family)) + "." + pair.substr(0, colon) + "=" + pair.substr(colon + 2));
                }
                s = parse_scenario(kPolicyBase, "t.yaml", sets);
                CHECK(given_params(family, s.policy) == all);
            }
            ++checked;
        }
    }
    CHECK(checked >= 4);  // budget, lead_ops, lead_ms, random, megengine at least
}

TEST_CASE("policy rows: a value outside its row's range is refused, naming the key and the range") {
    int checked = 0;
    for (const PolicyFamily& family : policy_families())
        for (const FamilyRow& row : family.rows)
            for (const ParamSpec& spec : row.params) {
                const std::string at = std::string(family.key) + "." + std::string(row.name) + "." + std::string(spec.key);
                INFO(at);
                if (spec.kind == ParamKind::Count && spec.high != kNoUpperBound) {
                    const std::string above = fmt::format("{:.0f}", spec.high + 1);
                    CHECK_THAT(policy_error_of({at + "=" + above}), Catch::Contains(at + ": '" + above + "' is out of range [") &&
                                                                        Catch::Contains(fmt::format("{:.0f}]", spec.high)));
                    ++checked;
                }
                if (spec.kind == ParamKind::Duration && spec.high != kNoUpperBound) {
                    const std::string above = fmt::format("{:g}s", spec.high);  // 1000x the limit in ms
                    CHECK_THAT(policy_error_of({at + "=" + above}),
                               Catch::Contains(at + ": '" + above + "' = ") && Catch::Contains("is out of range"));
                    ++checked;
                }
                if ((spec.kind == ParamKind::Count || spec.kind == ParamKind::Size) && spec.low > 0) {
                    CHECK_THAT(policy_error_of({at + "=0"}), Catch::Contains(at + ": must be >= "));
                    ++checked;
                }
                if (spec.kind == ParamKind::Size && spec.low_open) {
                    CHECK_THAT(policy_error_of({at + "=0"}), Catch::Contains(at + ": must be > 0"));
                    ++checked;
                }
                if (spec.kind == ParamKind::Number) {
                    CHECK_THAT(policy_error_of({at + "=.inf"}), Catch::Contains(at + ": inf is not a finite number"));
                    ++checked;
                }
            }
    CHECK(checked >= 4);
}

TEST_CASE("policy rows: a typo in a row's name or a parameter's key gets the closest, in every form") {
    for (const PolicyFamily& family : policy_families()) {
        const std::string key(family.key);
        for (const FamilyRow& row : family.rows) {
            if (row.params.empty()) continue;
            const std::string name(row.name), typo = name + "x";
            const ParamSpec& first = row.params.front();
            const Example e = valid_value(first);
            INFO(key << ": " << name);
            const std::string usage = usage_of(row.name, row.params);
            CHECK_THAT(policy_error_of({key + "=" + typo + ":" + e.text}), Catch::Contains("did you mean '" + usage + "'?"));
            CHECK_THAT(policy_error_of({key + "={" + typo + ": " + e.text + "}"}),
                       Catch::Contains(key + "." + typo + ": unknown key '" + typo + "' (did you mean '" + name + "'?)"));
            const std::string bad = std::string(first.key) + "x";
            CHECK_THAT(policy_error_of({key + "={" + name + ": {" + bad + ": " + e.text + "}}"}),
                       Catch::Contains(key + "." + name + "." + bad + ": unknown key '" + bad + "' (did you mean '" +
                                       std::string(first.key) + "'?)"));
        }
    }
}

TEST_CASE("policy rows: prefetch and heuristic parameters in the forms scenarios already use") {
    // lead_ops: 3 three ways, and the --set by dotted key older scenarios use.
    const ParamValues three{{"lead", std::uint64_t{3}}};
    for (const std::string form : {"lead_ops:3", "{lead_ops: 3}", "{lead_ops: {lead: 3}}"}) {
        INFO(form);
        const SwapSpec swap = swap_of(parse_scenario(kPolicyBase, "t.yaml", {"policy.swap.prefetch=" + form}));
        CHECK(swap.prefetch == "lead_ops");
        CHECK(swap.prefetch_params == three);
    }
    CHECK(swap_of(parse_scenario(kPolicyBase, "t.yaml", {"policy.swap.prefetch.lead_ops=3"})).prefetch_params == three);
    // budget's cap: 300 MiB = 314572800 B; plain budget leaves it unset.
    CHECK(swap_of(parse_scenario(kPolicyBase, "t.yaml", {"policy.swap.prefetch={budget: {cap: 300MiB}}"})).prefetch_params ==
          ParamValues{{"cap", std::uint64_t{314572800}}});
    CHECK(swap_of(parse_scenario(kPolicyBase, "t.yaml", {"policy.swap.prefetch=budget"})).prefetch_params.empty());
    // megengine's exponents beside the heuristic (as before) or in its map: the same values.
    const Scenario flat = parse_scenario(
        kPolicyBase, "t.yaml", {"policy.recompute.heuristic=megengine", "policy.recompute.a=2", "policy.recompute.d=0.5"});
    const Scenario mapped = parse_scenario(kPolicyBase, "t.yaml", {"policy.recompute.heuristic={megengine: {a: 2, d: 0.5}}"});
    CHECK(flat.policy.recompute.heuristic_params == ParamValues{{"a", 2.0}, {"d", 0.5}});
    CHECK(mapped.policy.recompute.heuristic_params == flat.policy.recompute.heuristic_params);
    // A parameter beside the key that the chosen heuristic does not take is read (and checked) but not given to it.
    const Scenario other = parse_scenario(kPolicyBase, "t.yaml", {"policy.recompute.heuristic=dtr", "policy.recompute.a=2"});
    CHECK(other.policy.recompute.heuristic_params.empty());
    CHECK_THAT(policy_error_of({"policy.recompute.heuristic=dtr", "policy.recompute.a=x"}),
               Catch::Contains("policy.recompute.a: 'x' is not a number"));
    // Both forms at once: refused.
    CHECK_THAT(policy_error_of({"policy.recompute.heuristic={megengine: {a: 2}}", "policy.recompute.a=3"}),
               Catch::Contains("policy.recompute.a: given twice: here and with policy.recompute.heuristic 'megengine'"));
    // A rule whose parameter must be given, written without it.
    CHECK_THAT(policy_error_of({"policy.swap.prefetch=lead_ops"}),
               Catch::Contains("policy.swap.prefetch: 'lead_ops' needs its lead (a whole number in [0, 2147483647] ops): write "
                               "lead_ops:N or {lead_ops: N}"));
    CHECK_THAT(policy_error_of({"policy.swap.prefetch={eager: 4}"}),
               Catch::Contains("policy.swap.prefetch.eager: 'eager' takes no parameter: write eager"));
    // Every form, from the rows (a rule whose parameter must be given in braces).
    CHECK_THAT(policy_error_of({"policy.swap.prefetch={lead_ops: 1, lead_ms: 2ms}"}),
               Catch::Contains("policy.swap.prefetch: expected budget, eager, just_in_time, {lead_ops: N}") &&
                   Catch::Contains("{lead_ms: T}"));
    // A name with ':' of its own is a name, not NAME:VALUE.
    CHECK(parse_scenario(kPolicyBase, "t.yaml", {"policy.allocator=planner:naive"}).policy.allocator == "planner:naive");
}

TEST_CASE("policy rows: names and parameter keys are unique, defaults in range, parameters beside a key collide with nothing") {
    // The keys of the maps that hold flat parameters, besides those parameters.
    const std::map<std::string, std::set<std::string>> fixed = {
        {"policy", {"allocator", "semantics", "hybrid", "swap", "recompute"}},
        {"policy.recompute", {"heuristic", "planner", "max_overhead"}},
    };
    std::map<std::string, std::map<std::string, ParamKind>> flat_kinds;  // parent -> key -> kind
    for (const PolicyFamily& family : policy_families()) {
        std::set<std::string_view> names;
        for (const FamilyRow& row : family.rows) {
            INFO(family.key << ": " << row.name);
            CHECK(names.insert(row.name).second);
            CHECK(!row.summary.empty());
            std::set<std::string_view> keys;
            for (const ParamSpec& spec : row.params) {
                INFO(spec.key);
                CHECK(keys.insert(spec.key).second);
                CHECK(!spec.summary.empty());
                if (spec.fallback) CHECK(in_range(spec, *spec.fallback));
                CHECK_FALSE((spec.fallback && spec.optional));
                if (!family.flat_params) continue;
                const std::string parent(parent_key(family));
                REQUIRE(fixed.count(parent) == 1);
                CHECK(fixed.at(parent).count(std::string(spec.key)) == 0);
                const auto [it, fresh] = flat_kinds[parent].emplace(std::string(spec.key), spec.kind);
                if (!fresh) CHECK(it->second == spec.kind);  // one key, one kind, whichever row reads it
            }
        }
    }
}

TEST_CASE("policy rows: swap modes and selections answer the flags of their rows") {
    for (const SwapModeRow& row : swap_modes()) {
        const auto mode = make_swap_mode(row);
        INFO(row.name);
        CHECK(mode->moves_tensors() == row.flags.moves_tensors);
        CHECK(mode->has_sync_points() == row.flags.has_sync_points);
        CHECK(mode->uses_prefetch_rule() == row.flags.uses_prefetch_rule);
    }
    // docs/swap.md: none moves nothing; only async issues reads by its prefetch rule; sync has no sync points.
    CHECK_FALSE(find_row(swap_modes(), "none")->flags.moves_tensors);
    CHECK(find_row(swap_modes(), "async")->flags.uses_prefetch_rule);
    CHECK_FALSE(find_row(swap_modes(), "semi_sync")->flags.uses_prefetch_rule);
    CHECK_FALSE(find_row(swap_modes(), "sync")->flags.has_sync_points);
    for (const SwapSelectionRow& row : swap_selections()) {
        const auto selection = make_swap_selection(row);
        INFO(row.name);
        CHECK(selection->needs_budget() == row.flags.needs_budget);
        CHECK(selection->spills_heuristic_victims() == row.flags.spills_heuristic_victims);
        CHECK((selection->victim_rule() != nullptr) == !row.flags.victim_rule.empty());
    }
    CHECK(find_row(swap_selections(), "budget")->flags.needs_budget);
    CHECK_FALSE(find_row(swap_selections(), "feature_maps")->flags.needs_budget);
}

TEST_CASE("policy rows: --help lists every row of every family with each parameter, its range and default") {
    const test::Outcome o = test::run_memsim("run --help");
    REQUIRE(o.code == 0);
    for (const PolicyFamily& family : policy_families()) {
        CHECK_THAT(o.out, Catch::Contains("  " + std::string(family.key) + ":\n"));
        for (const FamilyRow& row : family.rows) {
            INFO(row.name);
            CHECK_THAT(o.out, Catch::Contains(usage_of(row.name, row.params)) && Catch::Contains(std::string(row.summary)));
            for (const ParamSpec& spec : row.params)
                CHECK_THAT(o.out, Catch::Contains(std::string(spec.key) + ": " + kind_and_range(spec)) &&
                                      Catch::Contains(std::string(spec.summary)));
        }
    }
    CHECK_THAT(o.out, Catch::Contains("lead_ops: N") && Catch::Contains("lead: a whole number in [0, 2147483647] ops, required;") &&
                          Catch::Contains("b: a number, default 1.0001;") && Catch::Contains("cap: a size > 0 B, optional;"));
}

TEST_CASE("policy rows: the run header shows the parameters a scenario gave, from the row") {
    const auto header = [](const std::string& sets) {
        const test::Outcome o = test::run_memsim("run scenarios/example.yaml --out " + test::fresh_dir("rows_header").string() + " " + sets);
        REQUIRE(o.code != 1);
        return o.out;
    };
    CHECK_THAT(header("--set policy.swap.mode=async --set policy.swap.prefetch=lead_ops:3"),
               Catch::Contains("swap       async, selection feature_maps, prefetch lead_ops: 3\n"));
    CHECK_THAT(header("--set policy.swap.mode=async --set policy.swap.prefetch=lead_ms:1.5ms"),
               Catch::Contains("prefetch lead_ms: 1.5 ms\n"));
    // 1 MB = 1000000 B = 976.56 KiB.
    CHECK_THAT(header("--set policy.swap.mode=async --set 'policy.swap.prefetch={budget: {cap: 1MB}}'"),
               Catch::Contains("prefetch budget (cap 976.56 KiB)\n"));
    CHECK_THAT(header("--set platform.memory.budget=7MB --set policy.recompute.heuristic=megengine --set policy.recompute.a=2"),
               Catch::Contains("recompute  heuristic megengine (a 2)\n"));
    CHECK_THAT(header("--set platform.memory.budget=7MB --set policy.recompute.heuristic=megengine"),
               Catch::Contains("recompute  heuristic megengine\n"));
}
