#include "sim/scenario/policy_families.h"

#include <stdexcept>

#include "models/allocators.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/placement/placement_rule.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

template <typename Table>
std::vector<FamilyRow> rows_of(const Table& table) {
    std::vector<FamilyRow> rows;
    for (const auto& row : table) rows.push_back({row.name, row.summary, row.params});
    return rows;
}

std::vector<PolicyFamily> make_families() {
    std::vector<PolicyFamily> f;
    f.push_back({"policy.allocator", rows_of(allocator_table()), [](PolicySpec& p) -> std::string& { return p.allocator; },
                 [](PolicySpec& p) -> ParamValues& { return p.allocator_params; }, true});
    f.push_back({"policy.semantics", rows_of(semantics_table()), [](PolicySpec& p) -> std::string& { return p.semantics; },
                 [](PolicySpec& p) -> ParamValues& { return p.semantics_params; }});
    f.push_back({"policy.swap.mode", rows_of(swap_modes()), [](PolicySpec& p) -> std::string& { return p.swap.mode; },
                 [](PolicySpec& p) -> ParamValues& { return p.swap.mode_params; }});
    f.push_back({"policy.swap.select", rows_of(swap_selections()), [](PolicySpec& p) -> std::string& { return p.swap.select; },
                 [](PolicySpec& p) -> ParamValues& { return p.swap.select_params; }});
    f.push_back({"policy.swap.prefetch", rows_of(prefetch_rules()), [](PolicySpec& p) -> std::string& { return p.swap.prefetch; },
                 [](PolicySpec& p) -> ParamValues& { return p.swap.prefetch_params; }});
    f.push_back({"policy.swap.placement", rows_of(placement_rules()),
                 [](PolicySpec& p) -> std::string& { return p.swap.placement; },
                 [](PolicySpec& p) -> ParamValues& { return p.swap.placement_params; }});
    f.push_back({"policy.swap.path", rows_of(swap_paths()), [](PolicySpec& p) -> std::string& { return p.swap.path; },
                 [](PolicySpec& p) -> ParamValues& { return p.swap.path_params; }});
    f.push_back({"policy.recompute.heuristic", rows_of(eviction_heuristic_table()),
                 [](PolicySpec& p) -> std::string& { return p.recompute.heuristic; },
                 [](PolicySpec& p) -> ParamValues& { return p.recompute.heuristic_params; }, true, true});
    f.push_back({"policy.recompute.planner", rows_of(recompute_planner_table()),
                 [](PolicySpec& p) -> std::string& { return p.recompute.planner; },
                 [](PolicySpec& p) -> ParamValues& { return p.recompute.planner_params; }, true, true});
    return f;
}

}  // namespace

const std::vector<PolicyFamily>& policy_families() {
    static const std::vector<PolicyFamily> families = make_families();
    return families;
}

const PolicyFamily& policy_family(std::string_view key) {
    for (const PolicyFamily& f : policy_families())
        if (f.key == key) return f;
    throw std::logic_error("no policy family at '" + std::string(key) + "'");
}

const FamilyRow* find_row(const PolicyFamily& family, std::string_view name) { return find_row(family.rows, name); }

std::vector<std::string> row_names(const PolicyFamily& family) { return row_names(family.rows); }

std::vector<std::string> row_usages(const PolicyFamily& family) {
    std::vector<std::string> usages;
    for (const FamilyRow& row : family.rows) usages.push_back(usage_of(row.name, row.params));
    return usages;
}

const std::string& chosen_name(const PolicyFamily& family, const PolicySpec& policy) {
    return family.name(const_cast<PolicySpec&>(policy));  // read only
}

const ParamValues& given_params(const PolicyFamily& family, const PolicySpec& policy) {
    return family.params(const_cast<PolicySpec&>(policy));  // read only
}

std::string_view leaf_key(const PolicyFamily& family) { return family.key.substr(family.key.rfind('.') + 1); }

std::string_view parent_key(const PolicyFamily& family) { return family.key.substr(0, family.key.rfind('.')); }

}  // namespace memsim
