// How a swept parameter's values are placed on a plot's x axis: as numbers when
// every value reads as a plain number or as the same kind of quantity with units
// (rates, sizes, times; parsed as scenarios parse them), else as categories in the
// order the sweep lists them.
#pragma once

#include <string>
#include <vector>

namespace memsim {

struct ValueAxis {
    bool numeric = false;
    std::vector<double> positions;  // per value: its number (B/s, B or ms), or its index when categorical
    std::string unit;               // "B/s", "B", "ms", "" (plain numbers or categories)
    bool log_scale = false;         // numeric, all > 0 and spanning at least 20x
};

ValueAxis value_axis(const std::vector<std::string>& values);

}  // namespace memsim
