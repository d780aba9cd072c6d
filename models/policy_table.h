// The shape every policy family's table shares (allocators, static planners, eviction
// heuristics, recompute planners, swap selections, prefetch rules, swap modes): a row
// holds the name a scenario writes, a one-line summary, and the factory. The scenario
// parser, --help, error suggestions and the docs read their choices from these tables,
// so each name is written once, in its row.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace memsim {

template <typename Factory>
struct PolicyRow {
    std::string_view name;
    std::string_view summary;  // one line, for --help and the docs
    Factory make;
};

// The row named `name`, or nullptr.
template <typename Row>
const Row* find_row(std::span<const Row> table, std::string_view name) {
    for (const Row& row : table)
        if (row.name == name) return &row;
    return nullptr;
}

template <typename Row>
std::vector<std::string> row_names(std::span<const Row> table) {
    std::vector<std::string> names;
    names.reserve(table.size());
    for (const Row& row : table) names.emplace_back(row.name);
    return names;
}

}  // namespace memsim
