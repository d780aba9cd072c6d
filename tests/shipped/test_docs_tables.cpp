// The docs name every choice of every policy table: a row added without its paragraph
// fails here, so the tables and the pages that explain them stay in step.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "file_support.h"
#include "models/allocators.h"
#include "models/plan/strategies.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/placement/placement_rule.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/selection/swap_selection.h"
#include "models/swap/victim/victim_rule.h"
#include "sim/scenario/output_table.h"

using namespace memsim;

namespace {

// Every row's name (or, for a row whose parameter must be given, its usage, `lead_ops: N`)
// appears in backquotes on `page`. Returns how many rows were checked.
template <typename Table>
int check_documented(const Table& table, const std::string& page) {
    const std::string text = test::read_file(std::filesystem::path(MEMSIM_SOURCE_DIR) / page);
    REQUIRE(!text.empty());
    int rows = 0;
    for (const auto& row : table) {
        INFO(page << ": " << row.name);
        CHECK(text.find("`" + row_usage(row) + "`") != std::string::npos);
        ++rows;
    }
    return rows;
}

}  // namespace

TEST_CASE("docs: every row of every policy table is documented") {
    CHECK(check_documented(plan::planner_table(), "docs/planners.md") > 0);
    CHECK(check_documented(eviction_heuristic_table(), "docs/recompute.md") > 0);
    CHECK(check_documented(recompute_planner_table(), "docs/recompute.md") > 0);
    CHECK(check_documented(swap_modes(), "docs/swap.md") > 0);
    CHECK(check_documented(swap_selections(), "docs/swap.md") > 0);
    CHECK(check_documented(prefetch_rules(), "docs/swap.md") > 0);
    CHECK(check_documented(victim_rules(), "docs/swap.md") > 0);
    CHECK(check_documented(semantics_table(), "docs/semantics.md") > 0);
    CHECK(check_documented(placement_rules(), "docs/tiers.md") > 0);
    CHECK(check_documented(swap_paths(), "docs/tiers.md") > 0);
    int allocators = 0;
    const std::string semantics_page = test::read_file(std::filesystem::path(MEMSIM_SOURCE_DIR) / "docs/semantics.md");
    for (const AllocatorRow& row : allocator_table()) {
        const std::string name(row.name);
        if (name.rfind("planner:", 0) == 0) continue;  // the planner rows: docs/planners.md
        INFO(name);
        CHECK(semantics_page.find("`" + name + "`") != std::string::npos);
        ++allocators;
    }
    CHECK(allocators > 0);
}

TEST_CASE("docs: docs/outputs.md's table of the outputs a run writes is the outputs table, row for row") {
    std::vector<std::string> expected;
    for (const OutputRow& row : output_table()) {
        const std::string key = output_key(row), needs = needs_text(row.needs);
        expected.push_back(fmt::format("| {} | `{}` | {} | {} | {} |", key.empty() ? "always" : "`" + key + "`", row.file,
                                       row.sweep_point ? "yes" : "no", needs.empty() ? "-" : "`" + needs + "`", row.summary));
    }
    // The table's rows: the lines after its header and rule, up to the first line that is not a row.
    std::istringstream page(test::read_file(std::filesystem::path(MEMSIM_SOURCE_DIR) / "docs/outputs.md"));
    std::vector<std::string> documented;
    bool in_table = false;
    for (std::string line; std::getline(page, line);) {
        if (line == "| output | file | sweep point | needs | what |") {
            in_table = true;
            std::getline(page, line);  // |---|...
            continue;
        }
        if (in_table && line.rfind("| ", 0) != 0) break;
        if (in_table) documented.push_back(line);
    }
    CHECK(documented == expected);
}
