#include "models/plan/mincostflow.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/plan/mincostflow_fast.h"
#include "models/plan/mincostflow_tflite.h"

namespace memsim::plan {

namespace {

bool in_first_op_order(const std::vector<UsageRecord>& records) {
    return std::is_sorted(records.begin(), records.end(),
                          [](const UsageRecord& a, const UsageRecord& b) { return a.first_op < b.first_op; });
}

}  // namespace

bool mincostflow_runs_tflite(const std::vector<UsageRecord>& records) {
    return records.size() <= kMincostflowTfliteMaxRecords && in_first_op_order(records);
}

ObjectAssignment mincostflow(const std::vector<UsageRecord>& records) {
    if (mincostflow_runs_tflite(records)) {
        ObjectAssignment a = mincostflow_tflite(records);
        a.note = "mincostflow: TFLite's network and solver (exact ids)";
        return a;
    }
    ObjectAssignment a = mincostflow_fast(records);
    a.note = in_first_op_order(records)
                 ? fmt::format("mincostflow: ran mincostflow_fast ({} records > {}: TFLite's network has an edge per pair)",
                               records.size(), kMincostflowTfliteMaxRecords)
                 : "mincostflow: ran mincostflow_fast (records not in order of first_op, TFLite's precondition)";
    return a;
}

}  // namespace memsim::plan
