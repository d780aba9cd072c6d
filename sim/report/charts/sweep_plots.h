// The plots of a sweep, as SVG files in the sweep folder:
//   plot_<metric>_vs_<param>.svg for time_ms, peak_bytes and stall_ms against each swept
//   parameter, one line per combination of the other swept values (points without a
//   result are red crosses on the x axis);
//   plot_overhead_vs_<param>.svg: each finished point's own overhead (summary.json's, what
//   the tables print and find's conditions read), with the line at 1 drawn;
//   plot_peak_ratio_vs_<param>.svg when the sweep has a point that ran as if without a
//   policy (nothing swapped, recomputed, evicted or waited for): each point's peak over
//   that point's (same values of the parameters that are not policy.* or
//   platform.memory.*), with the line at 1 drawn;
//   plot_pareto_time_vs_peak.svg when a policy or policy.* key is swept: every point's
//   time against its peak, the non-dominated ones joined; points of several policies at
//   one place are one marker labelled with all of them; failed points are crosses on the
//   bottom edge.
// Categorical parameters are categories (markers, no lines between them); numeric ones
// spanning 20x or more are on a log axis, in a readable unit (MB/s, MiB, ms). Titles and
// axes name keys by their labels (sim/report/charts/value_labels.h); values that are maps are
// labelled by the leaves that differ between them. The time plots draw the no-policy
// time when every point shares one; the peak-ratio plot against the budget ratio draws
// y = x. scripts/plots_to_png.sh renders PNGs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/report/point_results.h"
#include "sim/scenario/sweep_plan.h"

namespace memsim {

// What a command that runs a sweep knows beyond the sweep: names for the first
// parameter's values (compare: its policy labels) and a point to mark (find: its answer;
// compare: the best run). Its order is the plan's (compare lists its values ranked).
struct PlotOptions {
    std::map<std::string, std::string> labels;  // value of the first parameter -> label
    std::optional<std::string> marked_value;    // value of the first parameter whose point is ringed
    std::string marked_label;                   // its legend entry ("answer: ...", "best: ...")
};

// Writes the plots into `dir`; returns the file names written, in a fixed order.
std::vector<std::string> write_sweep_plots(const SweepPlan& plan, const std::vector<PointResult>& results,
                                           const std::string& dir, const PlotOptions& options = {});

}  // namespace memsim
