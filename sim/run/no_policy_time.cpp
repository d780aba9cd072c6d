#include "sim/run/no_policy_time.h"

#include <bit>
#include <map>
#include <tuple>

#include "sim/simulation.h"

namespace memsim {

bool has_no_memory_policy(const Scenario& s) {
    const PolicySpec& p = s.policy;
    return !s.platform.memory_budget && !s.platform.memory_budget_ratio && p.swap.mode == SwapSpec{}.mode &&
           p.recompute.heuristic.empty() && p.recompute.planner.empty() && !p.hybrid;
}

Scenario without_memory_policy(const Scenario& s) {
    Scenario plain = s;
    plain.platform.memory_budget.reset();
    plain.platform.memory_budget_ratio.reset();
    plain.policy.swap = SwapSpec{};
    plain.policy.recompute = RecomputeSpec{};
    plain.policy.hybrid = false;
    return plain;
}

double no_policy_time_ms(const Scenario& s, const Workload& w) {
    // The disk and the allocator do not change a run that never swaps. The workload's
    // own compute sum tells apart two loads of one file with different costs.
    using Key = std::tuple<std::string, std::string, int, std::size_t, std::uint64_t, double, std::string>;
    static std::map<Key, double> cache;
    const Key key{w.source, w.name, w.batch, w.ops.size(), std::bit_cast<std::uint64_t>(w.compute_ms()),
                  s.platform.gpu_speed_scale, s.policy.semantics};
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
    const double time = simulate(w, without_memory_policy(s)).summary.time_ms;
    cache.emplace(key, time);
    return time;
}

}  // namespace memsim
