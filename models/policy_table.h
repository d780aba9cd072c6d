// The shape every policy family's table shares (allocators, static planners, eviction
// heuristics, recompute planners, swap selections, prefetch rules, swap modes): a row
// holds the name a scenario writes, a one-line summary, and the factory. The scenario
// parser, --help, error suggestions and the docs read their choices from these tables,
// so each name is written once, in its row.
#pragma once

#include <iterator>
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

// The name nearest `name` by edit distance, if within max(2, |name| / 3); else "".
std::string closest_name(std::string_view name, const std::vector<std::string>& names);

// "unknown <what> '<name>' (valid: a, b, c; did you mean 'b'?)": the error every table
// gives for a name it does not hold.
std::string unknown_name_message(std::string_view what, std::string_view name, const std::vector<std::string>& names);

}  // namespace memsim
