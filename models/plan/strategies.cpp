#include "models/plan/strategies.h"

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

const std::vector<StrategyInfo>& strategies() {
    static const std::vector<StrategyInfo> list{
        {"naive", PlanKind::Objects, "one object per tensor"},
        {"equality", PlanKind::Objects, "reuse a free object of exactly the same size"},
        {"greedy_in_order", PlanKind::Objects, "records in order, the free object wasting least"},
        {"greedy_by_breadth", PlanKind::Objects, "operators by breadth, tensors by size, best-fitting object"},
        {"greedy_by_size", PlanKind::Objects, "positional maximums, then the closest compatible object"},
        {"greedy_best", PlanKind::Objects, "the better of greedy_by_size and greedy_by_breadth"},
        {"mincostflow", PlanKind::Objects, "TFLite's min-cost flow, its exact ids (mincostflow_fast above 512 records)"},
        {"mincostflow_fast", PlanKind::Objects, "min-cost flow over object hand-overs on a merged network"},
        {"mxnet", PlanKind::Objects, "MXNet: in-place reuse, then free blocks within match_range 16"},
        {"greedy_by_size_offsets", PlanKind::Offsets, "one arena, by size into the smallest gap"},
        {"peer_heuristic", PlanKind::Offsets, "the reference code's per-operator best-fit gap planner"},
        {"peer_heuristic_python", PlanKind::Offsets,
         "the reference's Python planner: sizes rounded up to 64 B, no gap before the first tensor"},
        {"best_offsets", PlanKind::Offsets, "several orderings and a local search (100 rounds)"},
    };
    return list;
}

std::vector<std::string> strategy_names() {
    std::vector<std::string> names;
    for (const StrategyInfo& s : strategies()) names.push_back(s.name);
    return names;
}

const StrategyInfo& strategy_info(const std::string& name) {
    for (const StrategyInfo& s : strategies())
        if (s.name == name) return s;
    throw std::invalid_argument(
        fmt::format("unknown planner strategy '{}' (valid: {})", name, fmt::join(strategy_names(), ", ")));
}

void validate_plan(const std::vector<UsageRecord>& records, const Plan& plan, std::uint64_t align) {
    if (plan.kind == PlanKind::Objects) check_objects(records, plan.objects);
    check_offsets(records, plan.offsets, align);
}

Plan make_plan(const std::string& name, const std::vector<UsageRecord>& records, const PlanOptions& options,
               bool validate) {
    const StrategyInfo& info = strategy_info(name);
    Plan plan;
    plan.strategy = name;
    plan.kind = info.kind;
    if (info.kind == PlanKind::Objects) {
        if (name == "naive") plan.objects = naive(records);
        else if (name == "equality") plan.objects = equality(records);
        else if (name == "greedy_in_order") plan.objects = greedy_in_order(records);
        else if (name == "greedy_by_breadth") plan.objects = greedy_by_breadth(records);
        else if (name == "greedy_by_size") plan.objects = greedy_by_size_objects(records);
        else if (name == "greedy_best") plan.objects = greedy_best(records);
        else if (name == "mincostflow") plan.objects = mincostflow(records);
        else if (name == "mincostflow_fast") plan.objects = mincostflow_fast(records);
        else if (name == "mxnet") plan.objects = mxnet(records);
        plan.offsets = objects_to_offsets(plan.objects, options.align);
        plan.total = plan.objects.total;
    } else {
        if (name == "greedy_by_size_offsets") {
            plan.offsets = greedy_by_size_offsets(records, options.align);
        } else if (name == "peer_heuristic") {
            PeerHeuristicOptions o;
            o.iterations = options.peer_iterations;
            o.seed = options.seed;
            o.align = options.align;
            plan.offsets = peer_heuristic(records, o);
        } else if (name == "peer_heuristic_python") {
            // bufferAllocator.heuristic_alloc plans sizes aligned to MNN's 64 bytes (ordering
            // included) and skips the front gap; its total counts the last tensor's padding.
            std::vector<UsageRecord> aligned = records;
            for (UsageRecord& r : aligned) r.bytes = align_up(r.bytes, kReferenceSizeAlign);
            PeerHeuristicOptions o;
            o.iterations = options.peer_iterations;
            o.seed = options.seed;
            o.align = options.align;
            o.front_gap = false;
            plan.offsets = peer_heuristic(aligned, o);
        } else if (name == "best_offsets") {
            BestOffsetsOptions o;
            o.align = options.align;
            o.seed = options.seed;
            plan.offsets = best_offsets(records, o);
        }
        plan.total = plan.offsets.total;
    }
    if (validate) validate_plan(records, plan, options.align);
    return plan;
}

}  // namespace memsim::plan
