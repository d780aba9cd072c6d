// The shape every policy family's table shares (allocators, static planners, eviction
// heuristics, recompute planners, swap selections, prefetch rules, swap modes, victim
// rules, semantics): a row holds the name a scenario writes, a one-line summary, the
// factory, the parameters the policy takes (models/policy_params.h) and the family's
// capability flags (what a swap mode does, what a selection needs). The scenario schema,
// its parser, range checks, --help, error suggestions, the run header, the warnings and
// `compare`'s candidates read all of it from these tables, so each name, parameter and
// flag is written once, in its row.
#pragma once

#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/policy_params.h"

namespace memsim {

// The flags of a family that has none.
struct NoFlags {};

template <typename Factory, typename Flags = NoFlags>
struct PolicyRow {
    std::string_view name;
    std::string_view summary;  // one line, for --help and the docs
    Factory make;
    std::vector<ParamSpec> params = {};  // in the order --help lists them
    Flags flags = {};
};

// The row named `name` in a table (any range of rows: a std::array, a span), or nullptr.
template <typename Table>
auto find_row(const Table& table, std::string_view name) -> decltype(&*std::begin(table)) {
    for (const auto& row : table)
        if (row.name == name) return &row;
    return nullptr;
}

// Every name of a table, in its order (for --help, docs and "valid: ..." lists).
template <typename Table>
std::vector<std::string> row_names(const Table& table) {
    std::vector<std::string> names;
    for (const auto& row : table) names.emplace_back(row.name);
    return names;
}

// The name as a scenario writes it: "eager", or "lead_ops: N" for a row whose parameter
// must be given ("name: {a: X, b: N}" when it must be given several).
std::string usage_of(std::string_view name, std::span<const ParamSpec> params);
template <typename Row>
std::string row_usage(const Row& row) {
    return usage_of(row.name, row.params);
}

// The name nearest `name` by edit distance, if within max(2, |name| / 3); else "".
std::string closest_name(std::string_view name, const std::vector<std::string>& names);

// "unknown <what> '<name>' (valid: a, b, c; did you mean 'b'?)": the error every table
// gives for a name it does not hold.
std::string unknown_name_message(std::string_view what, std::string_view name, const std::vector<std::string>& names);

}  // namespace memsim
