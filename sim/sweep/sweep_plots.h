// The plots of a sweep, as SVG files in the sweep folder:
//   plot_<metric>_vs_<param>.svg for time_ms, peak_bytes and stall_ms against each swept
//   parameter, one line per combination of the other swept values (points without a
//   result are red crosses on the x axis);
//   plot_pareto_time_vs_peak.svg when a policy or policy.* key is swept: every point's
//   time against its peak, the non-dominated ones joined.
// Values that are maps are labelled by the leaves that differ between them.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/point_results.h"
#include "sim/sweep/sweep_plan.h"

namespace memsim {

// Writes the plots into `dir`; returns the file names written, in a fixed order.
std::vector<std::string> write_sweep_plots(const SweepPlan& plan, const std::vector<PointResult>& results,
                                           const std::string& dir);

}  // namespace memsim
