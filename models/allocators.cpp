#include "models/allocators.h"

#include <stdexcept>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/alloc/torch_alloc_conf.h"
#include "models/alloc/torch_caching_allocator.h"
#include "models/plan/planner_allocator.h"
#include "models/plan/strategies.h"

namespace memsim {

namespace {

struct AllocatorTable {
    std::vector<std::string> planner_names;  // "planner:<strategy>": the rows' names point here
    std::vector<AllocatorRow> rows;

    AllocatorTable() {
        rows.push_back({"os", "every tensor its own block: the footprint is the live bytes",
                        [](const PolicyParams&) { return std::make_unique<OsAllocator>(); },
                        {},
                        AllocatorFlags{.footprint_is_live_bytes = true}});
        rows.push_back({"pool", "MNN's pool: 64-byte aligned, best fit, split and merge; the peak is what it took from the OS",
                        [](const PolicyParams&) { return std::make_unique<PoolAllocator>(); }});
        // Its options are one text in PYTORCH_CUDA_ALLOC_CONF's syntax, written beside the key
        // (policy.torch_alloc_conf), as PyTorch users already write them.
        rows.push_back({"torch_caching",
                        "PyTorch's CUDA caching allocator: 512 B rounding, small and large pools of cached segments, best fit, "
                        "split and merge; the peak is the reserved bytes",
                        [](const PolicyParams& p) {
                            return std::make_unique<TorchCachingAllocator>(parse_torch_alloc_conf(p.text("torch_alloc_conf")));
                        },
                        {text_param("torch_alloc_conf",
                                    "PYTORCH_CUDA_ALLOC_CONF options (max_split_size_mb, roundup_power2_divisions, "
                                    "garbage_collection_threshold, expandable_segments); empty: PyTorch's defaults")
                             .or_default_text("")},
                        AllocatorFlags{.models_segments = true, .config_param = "torch_alloc_conf"}});
        const auto planners = plan::planner_table();
        planner_names.reserve(planners.size());  // no reallocation: the rows keep views into it
        for (const plan::PlannerRow& p : planners) {
            planner_names.push_back("planner:" + std::string(p.name));
            const std::string strategy(p.name);
            rows.push_back({planner_names.back(), p.summary,
                            [strategy](const PolicyParams& params) { return make_planner_allocator(strategy, params.values()); },
                            p.params, AllocatorFlags{.plans_ahead = true}});
        }
    }
};

const AllocatorTable& table() {
    static const AllocatorTable t;
    return t;
}

}  // namespace

std::span<const AllocatorRow> allocator_table() { return table().rows; }

std::vector<std::string> allocator_names() { return row_names(table().rows); }

bool footprint_is_live_bytes(std::string_view allocator) {
    const AllocatorRow* row = find_row(table().rows, allocator);
    return row && row->flags.footprint_is_live_bytes;
}

std::vector<std::string> segment_allocator_names() {
    std::vector<std::string> names;
    for (const AllocatorRow& row : table().rows)
        if (row.flags.models_segments) names.emplace_back(row.name);
    return names;
}

std::unique_ptr<Allocator> make_allocator(const std::string& name, const ParamValues& given) {
    if (const AllocatorRow* row = find_row(table().rows, name)) return row->make(PolicyParams(row->params, given));
    throw std::invalid_argument(unknown_name_message("allocator", name, allocator_names()));
}

}  // namespace memsim
