#include "models/plan/naive.h"

namespace memsim::plan {

ObjectAssignment naive(const std::vector<UsageRecord>& records) {
    ObjectAssignment a;
    for (std::size_t i = 0; i < records.size(); ++i) {
        a.object_ids.push_back(i);
        a.object_sizes.push_back(records[i].bytes);
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
