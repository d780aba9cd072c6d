// How a sweep names its keys and values for people (plot titles, axes, ticks and
// legends, the table `memsim sweep` prints): a key by what it means with its unit
// ("disk bandwidth (MB/s)" for platform.disk.bandwidth), a quantity in a readable unit
// ("23.4 MB/s" for 104094472B/4.452s), a value that is a map by the leaves that differ
// between the values ("bandwidth=3.2 GB/s read_latency=12 us").
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/sweep_plan.h"
#include "sim/report/charts/value_axis.h"

namespace memsim {

// "disk bandwidth" for platform.disk.bandwidth; a key without a label of its own is
// named by itself.
std::string key_label(const std::string& dotted);

// The last part of a dotted key: "bandwidth" for platform.disk.bandwidth.
std::string short_key(const std::string& dotted);

// The unit a numeric axis is shown in: the values are divided by `scale`.
struct DisplayUnit {
    std::string name;   // "MB/s", "MiB", "ms", "" (plain numbers)
    double scale = 1.0;
};
// For values in the base unit of `axis` (B/s, B, ms): the unit that puts the middle
// value between 1 and 1000.
DisplayUnit display_unit(const ValueAxis& axis);

// "disk bandwidth (MB/s)", "budget (fraction of the no-policy peak)", "swap mode".
std::string axis_label(const std::string& dotted, const DisplayUnit& unit);

// A value as written, with a quantity shown in a readable unit ("23.4 MB/s", "300 MiB",
// "12 us"); plain numbers and names as written.
std::string quantity_text(const std::string& written);

// Per value of `p`, its label: as written (quantities made readable), or for values that
// are maps the leaves that differ between them ("heuristic=dtr"); a map whose every leaf
// all the others share is "only KEY=VALUE ...".
std::vector<std::string> value_labels(const SweepParameter& p);

}  // namespace memsim
