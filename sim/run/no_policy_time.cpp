#include "sim/run/no_policy_time.h"

#include <bit>
#include <map>
#include <optional>
#include <tuple>

#include "sim/engine/engine.h"
#include "sim/engine/side_run.h"
#include "sim/run/run_config.h"
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

const char* const kWhat = "the no-policy time (the denominator of the overhead)";

// The disk and the allocator do not change a run that never swaps. The workload's own
// compute sum tells apart two loads of one file with different costs.
using Key = std::tuple<std::string, std::string, int, std::size_t, std::uint64_t, double, std::string>;

Key cache_key(const Scenario& s, const Workload& w) {
    return {w.source, w.name, w.batch, w.ops.size(), std::bit_cast<std::uint64_t>(w.compute_ms()),
            s.platform.gpu_speed_scale, s.policy.semantics};
}

// Known times, and times a process of the caller's is measuring (shared_no_policy_time).
struct Known {
    std::optional<double> time;
    std::shared_ptr<SharedMeasurement> measuring;
};

std::map<Key, Known>& cache() {
    static std::map<Key, Known> times;
    return times;
}

std::uint64_t measure(const Scenario& plain, const Workload& w) {
    RunConfig measuring = resolve_run_config(plain, w);
    measuring.record_events = false;  // only the time is read
    return std::bit_cast<std::uint64_t>(simulate(w, measuring, straight_plan(w)).summary.time_ms);
}

std::unique_ptr<ChildMeasurement> start_in_child(const Scenario& s, const Workload& w) {
    const Scenario plain = without_memory_policy(s);
    return std::make_unique<ChildMeasurement>([&] { return measure(plain, w); }, kWhat);
}

std::optional<double> as_time(const std::optional<std::uint64_t>& bits) {
    if (!bits) return std::nullopt;
    return std::bit_cast<double>(*bits);
}

}  // namespace

NoPolicyTime::NoPolicyTime(const Scenario& s, const Workload& w) : s_(s), w_(w) {
    if (const auto it = cache().find(cache_key(s, w)); it != cache().end()) {
        cached_ = it->second.time;
        shared_ = it->second.measuring;
    } else {
        child_ = start_in_child(s, w);
    }
}

NoPolicyTime::~NoPolicyTime() = default;

double NoPolicyTime::time_ms() {
    if (cached_) return *cached_;
    // A measurement that failed: simulate here, where its error surfaces with its message.
    const std::optional<double> measured = as_time(shared_ ? shared_->wait() : child_->result());
    child_.reset();
    shared_.reset();
    cached_ = measured ? *measured : simulate(w_, without_memory_policy(s_)).summary.time_ms;
    cache()[cache_key(s_, w_)] = {cached_, nullptr};
    return *cached_;
}

std::optional<ForkedMeasurement> shared_no_policy_time(const Scenario& s, const Workload& w) {
    const Key key = cache_key(s, w);
    if (cache().contains(key)) return std::nullopt;
    auto shared = std::make_shared<SharedMeasurement>(kWhat);
    cache()[key] = {std::nullopt, shared};
    ForkedMeasurement job;
    // The child measures with its own copies; the caller's may change before it runs.
    job.body = [shared, plain = without_memory_policy(s), &w] {
        std::optional<std::uint64_t> value;
        try {
            value = measure(plain, w);
        } catch (...) {
        }
        shared->publish(value);
        return 0;
    };
    job.forked = [shared] { shared->forked(); };
    return job;
}

}  // namespace memsim
