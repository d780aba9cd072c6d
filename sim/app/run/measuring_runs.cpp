#include "sim/app/run/measuring_runs.h"

#include <bit>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "sim/engine/engine.h"
#include "sim/app/run/run_config.h"

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

bool needs_on_demand_peak(const EngineConfig& config) {
    return !config.budget && config.make_swap_mode()->uses_prefetch_rule() && config.make_prefetch()->caps_at_no_prefetch_peak();
}

namespace {

const char* const kNoPolicyTime = "the no-policy time (the denominator of the overhead)";
const char* const kOnDemandPeak = "the no-prefetch peak (the default memory cap of prefetch: budget without a "
                                  "budget; policy.swap.prefetch: {budget: {cap: SIZE}} sets it instead)";

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

// The no-policy run itself (in the measuring process): its time's bits.
std::uint64_t measure_no_policy_time(const Scenario& plain, const Workload& w) {
    EngineConfig measuring = resolve_engine_config(plain, w);
    measuring.record_events = false;  // only the time is read
    return std::bit_cast<std::uint64_t>(simulate(w, measuring, straight_plan(w)).summary.time_ms);
}

}  // namespace

class MeasuringRuns::NoPolicyTime {
public:
    NoPolicyTime(const Scenario& s, const Workload& w) : key_(cache_key(s, w)) {
        if (const auto it = cache().find(key_); it != cache().end()) {
            time_ = it->second.time;
            shared_ = it->second.measuring;
            return;
        }
        const Scenario plain = without_memory_policy(s);
        child_ = std::make_unique<ChildMeasurement>([&] { return measure_no_policy_time(plain, w); }, kNoPolicyTime);
    }

    double time_ms() {
        if (time_) return *time_;
        const std::optional<std::uint64_t> bits = shared_ ? shared_->wait() : child_->result();
        // The measuring run's own error (it is the run's, as a lone run of it reports it).
        if (!bits) throw std::runtime_error(shared_ ? shared_->error() : child_->error());
        time_ = std::bit_cast<double>(*bits);
        cache()[key_] = {time_, nullptr};
        child_.reset();
        shared_.reset();
        return *time_;
    }

private:
    Key key_;
    std::optional<double> time_;
    std::unique_ptr<ChildMeasurement> child_;
    std::shared_ptr<SharedMeasurement> shared_;
};

// Started before the run, and waited for only when a prefetch rule first asks for the
// cap (the forward pass issues no prefetch, so on a second core the two overlap).
class MeasuringRuns::OnDemandPeak {
public:
    OnDemandPeak(const Workload& w, const EngineConfig& config, const ExecPlan& plan)
        : child_(
              [&]() -> std::uint64_t {
                  EngineConfig on_demand = config;
                  on_demand.make_prefetch = [] { return make_on_demand_prefetch(); };
                  on_demand.no_prefetch_peak = {};
                  on_demand.record_events = false;
                  return simulate(w, on_demand, plan).summary.live_peak_bytes;
              },
              kOnDemandPeak) {}

    std::optional<std::uint64_t> get() {
        if (!peak_) {
            peak_ = child_.result();
            if (!peak_) throw std::runtime_error(std::string("cannot measure ") + kOnDemandPeak + ": " + child_.error());
        }
        return peak_;
    }

private:
    ChildMeasurement child_;
    std::optional<std::uint64_t> peak_;
};

MeasuringRuns::MeasuringRuns() = default;
MeasuringRuns::~MeasuringRuns() = default;

void MeasuringRuns::start_no_policy_time(const Scenario& s, const Workload& w) {
    if (!has_no_memory_policy(s)) no_policy_ = std::make_unique<NoPolicyTime>(s, w);
}

NoPrefetchPeak MeasuringRuns::start_on_demand_peak(const Workload& w, const EngineConfig& config, const ExecPlan& plan) {
    if (!needs_on_demand_peak(config)) return {};
    on_demand_ = std::make_unique<OnDemandPeak>(w, config, plan);
    return [peak = on_demand_.get()] { return peak->get(); };
}

double MeasuringRuns::no_policy_time_ms(double own_time_ms) { return no_policy_ ? no_policy_->time_ms() : own_time_ms; }

std::optional<ForkedMeasurement> shared_no_policy_time(const Scenario& s, const Workload& w) {
    const Key key = cache_key(s, w);
    if (cache().contains(key)) return std::nullopt;
    auto shared = std::make_shared<SharedMeasurement>(kNoPolicyTime);
    cache()[key] = {std::nullopt, shared};
    ForkedMeasurement job;
    // The child measures with its own copies; the caller's may change before it runs.
    job.body = [shared, plain = without_memory_policy(s), &w] {
        try {
            shared->publish(measure_no_policy_time(plain, w));
        } catch (const std::exception& e) {
            shared->publish_error(e.what());
        } catch (...) {
            shared->publish_error("unknown exception");
        }
        return 0;
    };
    job.forked = [shared] { shared->forked(); };
    return job;
}

}  // namespace memsim
