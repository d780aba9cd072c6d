// The prefetch rules a scenario can name (policy.swap.prefetch), one row each: name,
// summary, factory, and the parameters the rule takes.
#include <array>

#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

std::unique_ptr<PrefetchRule> make_budget_prefetch(const PolicyParams&);        // budget_prefetch.cpp
std::unique_ptr<PrefetchRule> make_eager_prefetch(const PolicyParams&);         // eager_prefetch.cpp
std::unique_ptr<PrefetchRule> make_just_in_time_prefetch(const PolicyParams&);  // just_in_time_prefetch.cpp
std::unique_ptr<PrefetchRule> make_lead_ops_prefetch(const PolicyParams&);      // lead_ops_prefetch.cpp
std::unique_ptr<PrefetchRule> make_lead_ms_prefetch(const PolicyParams&);       // lead_ms_prefetch.cpp

std::span<const PrefetchRow> prefetch_rules() {
    static const std::array rules{
        PrefetchRow{"budget", "every read in order of need, as early as the budget (else {budget: {cap: SIZE}}, else the peak with reads on demand) allows",
                    make_budget_prefetch,
                    {size_param("cap", "caps the early reads' memory (unset: the budget, else the peak with reads on demand)").above(0).or_unset()}},
        PrefetchRow{"eager", "every read as soon as possible (budget permitting)", make_eager_prefetch},
        PrefetchRow{"just_in_time", "the latest start that still arrives in time, given the disk queue ahead",
                    make_just_in_time_prefetch},
        PrefetchRow{"lead_ops", "a backward op's reads N ops before it runs", make_lead_ops_prefetch,
                    {count_param("lead", "how many ops before its consumer a read is issued").in(0, 2147483647).in_unit("ops")}},
        PrefetchRow{"lead_ms", "a backward op's reads T of compute before it runs", make_lead_ms_prefetch,
                    {duration_param("lead", "how much compute before its consumer a read is issued")}},
    };
    return rules;
}

}  // namespace memsim
