#include "models/plan/greedy_best.h"

#include "models/plan/greedy_by_breadth.h"
#include "models/plan/greedy_by_size.h"

namespace memsim::plan {

ObjectAssignment greedy_best(const std::vector<UsageRecord>& records) {
    ObjectAssignment by_size = greedy_by_size_objects(records);
    ObjectAssignment by_breadth = greedy_by_breadth(records);
    return by_breadth.total < by_size.total ? by_breadth : by_size;
}

}  // namespace memsim::plan
