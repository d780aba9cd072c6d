#include "models/plan/planner_allocator.h"

#include <stdexcept>

namespace memsim {

// Placeholder until the static planners land (issue 5): no strategy is registered yet.
std::vector<std::string> planner_strategy_names() { return {}; }

std::unique_ptr<Allocator> make_planner_allocator(const std::string& strategy) {
    throw std::invalid_argument("unknown planner strategy '" + strategy + "'");
}

}  // namespace memsim
