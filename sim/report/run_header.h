// The head of a run's pictures: a title that tells variants of one scenario apart
// and every setting that shaped the run, in words, read from the scenario, the
// workload and the summary (the outputs never parse YAML themselves).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/workload/workload.h"
#include "sim/scenario/scenario.h"
#include "sim/engine/summary.h"

namespace memsim {

struct RunHeader {
    std::string title;                                         // "mobilenetv2_b4: os, budget 60% (9.2 MiB), dtr"
    std::vector<std::pair<std::string, std::string>> settings;  // (name, value), in the order shown
};

RunHeader run_header(const Scenario& scenario, const Workload& workload, const Summary& summary);

}  // namespace memsim
