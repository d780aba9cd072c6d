#include "models/alloc/allocator.h"

#include <stdexcept>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/plan/planner_allocator.h"

namespace memsim {

std::vector<std::string> allocator_names() {
    std::vector<std::string> names{"os", "pool"};
    for (const std::string& s : planner_strategy_names()) names.push_back("planner:" + s);
    return names;
}

std::unique_ptr<Allocator> make_allocator(const std::string& name) {
    if (name == "os") return std::make_unique<OsAllocator>();
    if (name == "pool") return std::make_unique<PoolAllocator>();
    const std::string prefix = "planner:";
    if (name.rfind(prefix, 0) == 0) return make_planner_allocator(name.substr(prefix.size()));
    throw std::invalid_argument("unknown allocator '" + name + "'");
}

}  // namespace memsim
