// The docs name every choice of the policy tables: a row added without its paragraph
// fails here, so the tables and the pages that explain them stay in step.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "file_support.h"
#include "models/allocators.h"
#include "models/plan/strategies.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"

using namespace memsim;

namespace {

template <typename Table>
void check_documented(const Table& table, const std::string& page) {
    const std::string text = test::read_file(std::filesystem::path(MEMSIM_SOURCE_DIR) / page);
    REQUIRE(!text.empty());
    for (const auto& row : table) {
        INFO(page << ": " << row.name);
        CHECK(text.find("`" + std::string(row.name) + "`") != std::string::npos);
    }
}

}  // namespace

TEST_CASE("docs: every row of the allocator, planner, heuristic and recompute-planner tables is documented") {
    check_documented(plan::planner_table(), "docs/planners.md");
    check_documented(eviction_heuristic_table(), "docs/recompute.md");
    check_documented(recompute_planner_table(), "docs/recompute.md");
    for (const AllocatorRow& row : allocator_table()) {
        const std::string name(row.name);
        if (name.rfind("planner:", 0) == 0) continue;  // the planner rows: docs/planners.md
        INFO(name);
        CHECK(test::read_file(std::filesystem::path(MEMSIM_SOURCE_DIR) / "docs/semantics.md").find("`" + name + "`") !=
              std::string::npos);
    }
}
