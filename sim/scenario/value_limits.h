// Ranges of the scenario's numbers, checked after unit conversion: "1e306min" is a finite
// number of minutes but an infinite number of milliseconds, and SimGrid aborts on
// non-finite or denormal durations and rates. The bounds are wide (see docs/limits.md):
// they only keep out values no machine has and the engine cannot represent. A policy
// parameter's range is in its row (models/policy_params.h), checked where it is read
// (policy_choice.h).
#pragma once

#include "models/policy_params.h"
#include "sim/scenario/scenario.h"

namespace memsim {

inline constexpr double kMinRateBytesPerS = 1.0;   // 1 B/s
inline constexpr double kMaxRateBytesPerS = 1e15;  // 1 PB/s
inline constexpr double kMaxLatencyMs = kMaxParamDurationMs;  // 1e9 ms, about 11.6 days
inline constexpr double kMinSpeedScale = 1e-3;
inline constexpr double kMaxSpeedScale = 1e3;
inline constexpr double kMaxBudgetRatio = 1e3;
inline constexpr double kMaxOverhead = 1e6;
inline constexpr double kMaxSyntheticParam = 1e7;
inline constexpr double kMinPeakFlops = 1e6;   // platform.gpu.peak_flops.*: 1 Mflop/s
inline constexpr double kMaxPeakFlops = 1e18;  // 1 Eflop/s

// Throws InputError naming the scenario file, the key and the value (as written and as
// converted) of the first value out of its range.
void check_value_limits(const Scenario& s);

}  // namespace memsim
