#include "sim/run/no_policy_time.h"

#include <bit>
#include <map>
#include <optional>
#include <tuple>

#include "sim/engine/side_run.h"
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

namespace {

// The disk and the allocator do not change a run that never swaps. The workload's own
// compute sum tells apart two loads of one file with different costs.
using Key = std::tuple<std::string, std::string, int, std::size_t, std::uint64_t, double, std::string>;

Key cache_key(const Scenario& s, const Workload& w) {
    return {w.source, w.name, w.batch, w.ops.size(), std::bit_cast<std::uint64_t>(w.compute_ms()),
            s.platform.gpu_speed_scale, s.policy.semantics};
}

std::map<Key, double>& cache() {
    static std::map<Key, double> times;
    return times;
}

std::optional<double> time_in_child(const Scenario& s, const Workload& w) {
    const Scenario plain = without_memory_policy(s);
    const auto bits = measure_in_child(
        [&] { return std::bit_cast<std::uint64_t>(simulate(w, plain).summary.time_ms); },
        "the no-policy time (the denominator of the overhead)");
    if (!bits) return std::nullopt;
    return std::bit_cast<double>(*bits);
}

}  // namespace

double no_policy_time_ms(const Scenario& s, const Workload& w) {
    const Key key = cache_key(s, w);
    if (const auto it = cache().find(key); it != cache().end()) return it->second;
    // A child that failed: simulate here, where its error surfaces with its message.
    const std::optional<double> measured = time_in_child(s, w);
    const double time = measured ? *measured : simulate(w, without_memory_policy(s)).summary.time_ms;
    cache().emplace(key, time);
    return time;
}

void prefill_no_policy_time(const Scenario& s, const Workload& w) {
    const Key key = cache_key(s, w);
    if (cache().contains(key)) return;
    if (const auto time = time_in_child(s, w)) cache().emplace(key, *time);
}

}  // namespace memsim
