// The policy families a scenario chooses from (policy.allocator, policy.swap.prefetch,
// ...): for each, the key it is written at, its table's rows seen alike (name, summary,
// parameters) and the PolicySpec fields its choice goes to. The schema, the parser,
// the checks, --help, the run header and `compare` walk this list; every name,
// parameter and flag comes from the family's own table (models/).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/policy_params.h"
#include "sim/scenario/scenario.h"

namespace memsim {

struct FamilyRow {
    std::string_view name;
    std::string_view summary;
    std::span<const ParamSpec> params;
};

struct PolicyFamily {
    std::string_view key;  // "policy.swap.prefetch"
    std::vector<FamilyRow> rows;
    std::string& (*name)(PolicySpec&);     // where the chosen row's name goes
    ParamValues& (*params)(PolicySpec&);   // where the parameters given to it go
    // Its parameters may also be written beside the key (`policy.recompute.seed: 7` for
    // the heuristic's seed, `policy.X: ...` for an allocator's X).
    bool flat_params = false;
    bool optional = false;  // "" chooses none (no heuristic, no planner)
};

// allocator, semantics, swap mode, swap selection, prefetch rule, recompute heuristic,
// recompute planner: in the order --help lists them.
const std::vector<PolicyFamily>& policy_families();
// The family written at `key`; std::logic_error for a key no family has (a bug).
const PolicyFamily& policy_family(std::string_view key);

const FamilyRow* find_row(const PolicyFamily& family, std::string_view name);
std::vector<std::string> row_names(const PolicyFamily& family);
// Each row as a scenario writes it: "eager", "lead_ops: N" (models/policy_table.h).
std::vector<std::string> row_usages(const PolicyFamily& family);

const std::string& chosen_name(const PolicyFamily& family, const PolicySpec& policy);
const ParamValues& given_params(const PolicyFamily& family, const PolicySpec& policy);

// The key's last part ("prefetch") and the map it sits in ("policy.swap").
std::string_view leaf_key(const PolicyFamily& family);
std::string_view parent_key(const PolicyFamily& family);

}  // namespace memsim
