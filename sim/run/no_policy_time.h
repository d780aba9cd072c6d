// The denominator of a summary's overhead: the time of the same workload on the same
// platform with no memory policy at all (no budget, no swap, no recompute), under the
// scenario's semantics. It is simulated, not summed from the operators' costs: a
// run's clock is SimGrid's, whose rounding differs from a plain sum in the last bits
// (docs/outputs.md), and a run without a policy must have an overhead of exactly 1.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "models/workload/workload.h"
#include "sim/engine/side_run.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// True when the scenario sets no budget, no swapping and no recomputation.
bool has_no_memory_policy(const Scenario& s);

// The scenario with its budget, swapping and recomputation removed.
Scenario without_memory_policy(const Scenario& s);

// The no-policy time of `w` under `s`'s platform and semantics, simulated once per
// workload, speed scale and semantics in this process. It is simulated in a forked
// child (sim/engine/side_run.h), so that it is the time a lone `memsim run` of the
// no-policy scenario prints, bit for bit, and this process's clock stays where a lone
// run's starts. Construct it before this process's own simulation (the child starts
// then, and runs beside it); time_ms() after.
class NoPolicyTime {
public:
    NoPolicyTime(const Scenario& s, const Workload& w);
    ~NoPolicyTime();
    double time_ms();

private:
    const Scenario& s_;
    const Workload& w_;
    std::optional<double> cached_;
    std::unique_ptr<ChildMeasurement> child_;
    std::shared_ptr<SharedMeasurement> shared_;
};

// For a process that forks its runs (a sweep): the no-policy time of `w` under `s`,
// measured once by a process the caller forks (one of its pool's jobs, so that --jobs
// counts it) with `body`, calling `forked` just after the fork. Every run forked after
// that finds the time here and waits for it only when it needs it, after its own
// simulation, so the measurement overlaps the first runs instead of delaying them. A
// failed measurement is left to the runs, which simulate it themselves and report its
// error as their own. None when the time is known or being measured already.
struct ForkedMeasurement {
    std::function<int()> body;
    std::function<void()> forked;
};
std::optional<ForkedMeasurement> shared_no_policy_time(const Scenario& s, const Workload& w);

}  // namespace memsim
