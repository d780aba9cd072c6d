// A mixed-integer linear program in a solver-independent form: columns with bounds,
// costs and integrality, rows as bounded sparse sums. models/recompute/optimal builds
// the recomputation program in it and cbc_solver.h hands it to COIN-OR CBC.
#pragma once

#include <limits>
#include <utility>
#include <vector>

namespace memsim::optimal {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Milp {
    std::vector<double> col_lower, col_upper, cost;
    std::vector<char> integer;
    std::vector<double> row_lower, row_upper;
    std::vector<std::vector<std::pair<int, double>>> rows;  // (column, coefficient)

    int add_column(double lower, double upper, double objective, bool is_integer) {
        col_lower.push_back(lower);
        col_upper.push_back(upper);
        cost.push_back(objective);
        integer.push_back(is_integer ? 1 : 0);
        return static_cast<int>(cost.size()) - 1;
    }
    int add_row(std::vector<std::pair<int, double>> terms, double lower, double upper) {
        rows.push_back(std::move(terms));
        row_lower.push_back(lower);
        row_upper.push_back(upper);
        return static_cast<int>(rows.size()) - 1;
    }
    [[nodiscard]] int columns() const { return static_cast<int>(cost.size()); }
    [[nodiscard]] int row_count() const { return static_cast<int>(rows.size()); }
    [[nodiscard]] std::size_t nonzeros() const {
        std::size_t n = 0;
        for (const auto& r : rows) n += r.size();
        return n;
    }
};

}  // namespace memsim::optimal
