// The prefetch rules a scenario can name (policy.swap.prefetch), one row each.
#include <array>

#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

std::unique_ptr<PrefetchRule> make_budget_prefetch(const PrefetchParams&);        // budget_prefetch.cpp
std::unique_ptr<PrefetchRule> make_eager_prefetch(const PrefetchParams&);         // eager_prefetch.cpp
std::unique_ptr<PrefetchRule> make_just_in_time_prefetch(const PrefetchParams&);  // just_in_time_prefetch.cpp
std::unique_ptr<PrefetchRule> make_lead_ops_prefetch(const PrefetchParams&);      // lead_ops_prefetch.cpp
std::unique_ptr<PrefetchRule> make_lead_ms_prefetch(const PrefetchParams&);       // lead_ms_prefetch.cpp

namespace {

const std::array kRules{
    PrefetchRow{"budget", "every read in order of need, as early as the budget (else {budget: {cap: SIZE}}, else the peak with reads on demand) allows",
                {PrefetchParam::None, make_budget_prefetch, true}},
    PrefetchRow{"eager", "every read as soon as possible (budget permitting)", {PrefetchParam::None, make_eager_prefetch}},
    PrefetchRow{"just_in_time", "the latest start that still arrives in time, given the disk queue ahead",
                {PrefetchParam::None, make_just_in_time_prefetch}},
    PrefetchRow{"lead_ops", "a backward op's reads N ops before it runs", {PrefetchParam::Ops, make_lead_ops_prefetch}},
    PrefetchRow{"lead_ms", "a backward op's reads T of compute before it runs", {PrefetchParam::Ms, make_lead_ms_prefetch}},
};

}  // namespace

std::span<const PrefetchRow> prefetch_rules() { return kRules; }

std::string prefetch_usage(const PrefetchRow& row) {
    switch (row.make.param) {
        case PrefetchParam::Ops: return std::string(row.name) + ": N";
        case PrefetchParam::Ms: return std::string(row.name) + ": T";
        case PrefetchParam::None: break;
    }
    return std::string(row.name);
}

}  // namespace memsim
