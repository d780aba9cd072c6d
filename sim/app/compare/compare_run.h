// `memsim compare`: every policy family (sim/app/compare/policy_candidates.h) at the
// scenario's budget on its workload and platform, run as one sweep over `policy`
// (forked points, sim/app/sweep/sweep_runner.h) into a sweep folder with results.csv and the
// sweep plots (the Pareto plot of time against peak among them), then ranked: the best
// run of each family (its fastest finished one), finished runs by time, then the others.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/app/compare/policy_candidates.h"
#include "sim/report/point_results.h"
#include "sim/app/sweep/sweep_runner.h"

namespace memsim {

struct CompareRequest {
    std::string scenario_file;
    std::vector<std::string> overrides;
    std::vector<std::string> families;  // empty: all
    std::string dir;                    // "" = <scenario output.dir>/compare
    SweepRunOptions run;
};

struct CompareRow {
    PolicyCandidate candidate;
    PointResult result;
    std::size_t variants = 1;  // runs of its family the row is the best of
};

struct CompareOutcome {
    std::vector<CompareRow> ranked;   // the best of each family, best first
    std::vector<std::string> skipped; // candidates the scenario cannot take, with the reason
    std::string dir;
    std::vector<std::string> files;
    std::string report;
};

CompareOutcome run_compare(const CompareRequest& request, std::ostream& progress);

}  // namespace memsim
