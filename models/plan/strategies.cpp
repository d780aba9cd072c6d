#include "models/plan/strategies.h"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "models/plan/best_offsets.h"
#include "models/plan/equality.h"
#include "models/plan/greedy_best.h"
#include "models/plan/greedy_by_breadth.h"
#include "models/plan/greedy_by_size.h"
#include "models/plan/greedy_in_order.h"
#include "models/plan/mincostflow.h"
#include "models/plan/mincostflow_fast.h"
#include "models/plan/mxnet.h"
#include "models/plan/naive.h"
#include "models/plan/objects_to_offsets.h"
#include "models/plan/offsets_greedy_by_size.h"
#include "models/plan/peer_heuristic.h"

namespace memsim::plan {

namespace {

OffsetAssignment greedy_by_size_offsets_row(const std::vector<UsageRecord>& records, const PlanOptions& options, const PolicyParams&) {
    return greedy_by_size_offsets(records, options.align);
}

PeerHeuristicOptions peer_options(const PlanOptions& options) {
    PeerHeuristicOptions o;
    o.iterations = options.peer_iterations;
    o.seed = options.seed;
    o.align = options.align;
    return o;
}

OffsetAssignment peer_heuristic_row(const std::vector<UsageRecord>& records, const PlanOptions& options, const PolicyParams&) {
    return peer_heuristic(records, peer_options(options));
}

// bufferAllocator.heuristic_alloc plans sizes aligned to MNN's 64 bytes (ordering
// included) and skips the front gap; its total counts the last tensor's padding.
OffsetAssignment peer_heuristic_python_row(const std::vector<UsageRecord>& records, const PlanOptions& options, const PolicyParams&) {
    std::vector<UsageRecord> aligned = records;
    for (UsageRecord& r : aligned) r.bytes = align_up(r.bytes, kReferenceSizeAlign);
    PeerHeuristicOptions o = peer_options(options);
    o.front_gap = false;
    return peer_heuristic(aligned, o);
}

OffsetAssignment best_offsets_row(const std::vector<UsageRecord>& records, const PlanOptions& options, const PolicyParams&) {
    BestOffsetsOptions o;
    o.align = options.align;
    o.seed = options.seed;
    return best_offsets(records, o);
}

// An object planner that takes no parameter.
template <ObjectAssignment (*plan)(const std::vector<UsageRecord>&)>
ObjectAssignment objects_of(const std::vector<UsageRecord>& records, const PolicyParams&) {
    return plan(records);
}

ObjectAssignment mxnet_plan(const std::vector<UsageRecord>& records) { return mxnet(records); }

std::span<const PlannerRow> planners() {
    static const auto rows = std::to_array<PlannerRow>({
        {"naive", "one object per tensor", {objects_of<naive>}},
        {"equality", "reuse a free object of exactly the same size", {objects_of<equality>}},
        {"greedy_in_order", "records in order, the free object wasting least", {objects_of<greedy_in_order>}},
        {"greedy_by_breadth", "operators by breadth, tensors by size, best-fitting object", {objects_of<greedy_by_breadth>}},
        {"greedy_by_size", "positional maximums, then the closest compatible object", {objects_of<greedy_by_size_objects>}},
        {"greedy_best", "the better of greedy_by_size and greedy_by_breadth", {objects_of<greedy_best>}},
        {"mincostflow", "TFLite's min-cost flow, its exact ids (mincostflow_fast above 512 records)", {objects_of<mincostflow>}},
        {"mincostflow_fast", "min-cost flow over object hand-overs on a merged network", {objects_of<mincostflow_fast>}},
        {"mxnet", "MXNet: in-place reuse, then free blocks within match_range 16", {objects_of<mxnet_plan>}},
        {"greedy_by_size_offsets", "one arena, by size into the smallest gap", {nullptr, greedy_by_size_offsets_row}},
        {"peer_heuristic", "the reference code's per-operator best-fit gap planner", {nullptr, peer_heuristic_row}},
        {"peer_heuristic_python", "the reference's Python planner: sizes rounded up to 64 B, no gap before the first tensor",
         {nullptr, peer_heuristic_python_row}},
        {"best_offsets", "several orderings and a local search (100 rounds)", {nullptr, best_offsets_row}},
    });
    return rows;
}

}  // namespace

std::span<const PlannerRow> planner_table() { return planners(); }

const std::vector<StrategyInfo>& strategies() {
    static const std::vector<StrategyInfo> list = [] {
        std::vector<StrategyInfo> out;
        for (const PlannerRow& row : planners())
            out.push_back({std::string(row.name), row.make.kind(), std::string(row.summary)});
        return out;
    }();
    return list;
}

std::vector<std::string> strategy_names() { return row_names(planners()); }

const StrategyInfo& strategy_info(const std::string& name) {
    for (const StrategyInfo& s : strategies())
        if (s.name == name) return s;
    throw std::invalid_argument(unknown_name_message("planner strategy", name, strategy_names()));
}

void validate_plan(const std::vector<UsageRecord>& records, const Plan& plan, std::uint64_t align) {
    if (plan.kind == PlanKind::Objects) check_objects(records, plan.objects);
    check_offsets(records, plan.offsets, align);
}

Plan make_plan(const std::string& name, const std::vector<UsageRecord>& records, const PlanOptions& options,
               bool validate) {
    const PlannerRow* row = find_row(planners(), name);
    if (!row) throw std::invalid_argument(unknown_name_message("planner strategy", name, strategy_names()));
    Plan plan;
    plan.strategy = name;
    plan.kind = row->make.kind();
    if (plan.kind == PlanKind::Objects) {
        plan.objects = row->make.objects(records, PolicyParams(row->params, options.params));
        plan.offsets = objects_to_offsets(plan.objects, options.align);
        plan.total = plan.objects.total;
    } else {
        plan.offsets = row->make.offsets(records, options, PolicyParams(row->params, options.params));
        plan.total = plan.offsets.total;
    }
    if (validate) validate_plan(records, plan, options.align);
    return plan;
}

}  // namespace memsim::plan
