// The simulations a run's result needs besides its own, decided and scheduled here for
// every command (run, and sweep, find and compare, whose points are runs):
// - the no-policy time, the denominator of the summary's overhead: the same workload on
//   the same platform with no memory policy at all (no budget, no swap, no recompute),
//   under the scenario's semantics. It is simulated, not summed from the operators'
//   costs: a run's clock is SimGrid's, whose rounding differs from a plain sum in the
//   last bits (docs/budgets.md), and a run without a policy must have an overhead of
//   exactly 1 (it is its own denominator);
// - the on-demand peak, the memory cap of a prefetch rule that caps early reads at it
//   (the budget rule under async, without a budget or a cap of its own: docs/swap.md):
//   the live peak of the same run with every read issued only when its consumer starts.
// Each is simulated in a child process (sim/app/run/child_process.h) forked before this
// process simulates anything, so that it starts on a fresh SimGrid clock and gives bit
// for bit what a lone run of it gives, and runs beside this process's own simulation
// (on a second core the two overlap). The engine never forks: it gets the on-demand
// peak as a callable (EngineConfig::no_prefetch_peak) that waits for the child when a
// prefetch rule first asks.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "models/workload/exec_plan.h"
#include "models/workload/workload.h"
#include "sim/engine/engine_config.h"
#include "sim/app/run/child_process.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// True when the scenario sets no budget, no swapping and no recomputation.
bool has_no_memory_policy(const Scenario& s);

// The scenario with its budget, swapping and recomputation removed.
Scenario without_memory_policy(const Scenario& s);

// True when the run needs the on-demand peak: its prefetch rule caps early reads at it
// and neither a budget nor the user's cap replaces it.
bool needs_on_demand_peak(const EngineConfig& config);

// The measuring runs of one run. Start them before this process simulates; read them
// after (the on-demand peak: during) its simulation.
class MeasuringRuns {
public:
    MeasuringRuns();
    ~MeasuringRuns();
    MeasuringRuns(const MeasuringRuns&) = delete;
    MeasuringRuns& operator=(const MeasuringRuns&) = delete;

    // The no-policy time of `w` under `s`, when `s` has a memory policy: found in this
    // process's cache (one per workload, speed scale and semantics, also filled by a
    // sweep's shared measurement), or started in a child.
    void start_no_policy_time(const Scenario& s, const Workload& w);
    // The on-demand peak of `config` on `plan`, when needs_on_demand_peak: started in a
    // child. Returns the engine's EngineConfig::no_prefetch_peak (empty when not needed),
    // valid while this object lives; a failed measurement is an error naming the cap
    // that skips it.
    NoPrefetchPeak start_on_demand_peak(const Workload& w, const EngineConfig& config, const ExecPlan& plan);
    // After the run: the no-policy time, or `own_time_ms` when the scenario has no memory
    // policy. A failed measurement is an error saying why.
    double no_policy_time_ms(double own_time_ms);

private:
    class NoPolicyTime;
    class OnDemandPeak;
    std::unique_ptr<NoPolicyTime> no_policy_;
    std::unique_ptr<OnDemandPeak> on_demand_;
};

// For a process that forks its runs (a sweep): the no-policy time of `w` under `s`,
// measured once by a process the caller forks (one of its pool's jobs, so that --jobs
// counts it) with `body`, calling `forked` just after the fork. Every run forked after
// that finds the time here and waits for it only when it needs it, after its own
// simulation, so the measurement overlaps the first runs instead of delaying them. None
// when the time is known or being measured already.
struct ForkedMeasurement {
    std::function<int()> body;
    std::function<void()> forked;
};
std::optional<ForkedMeasurement> shared_no_policy_time(const Scenario& s, const Workload& w);

}  // namespace memsim
