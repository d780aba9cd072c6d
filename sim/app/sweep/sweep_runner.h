// The three ways a sweep's points get run and gathered:
//   run_sweep:        every point in a child process here, --jobs at a time: forked from
//                     this process after it loaded the point's workload (each distinct
//                     workload loaded once; each child runs one fresh SimGrid engine), or,
//                     with process_per_point, a `memsim run` process per point;
//   emit_sweep_jobs:  one resolved scenario per point plus jobs.txt, for GNU parallel or a
//                     Slurm array elsewhere;
//   merge_sweep:      results.csv and plots from the point folders, whoever ran them.
// All three share the folder layout DIR/sweep.json, DIR/points/NNNN/{summary.json,log.txt,...},
// DIR/results.csv, DIR/plot_*.svg.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/scenario/sweep_plan.h"
#include "sim/report/charts/sweep_plots.h"

namespace memsim {

struct SweepRunOptions {
    int jobs = 1;               // processes at a time
    bool terminal = false;      // draw a progress bar instead of plain lines
    bool process_per_point = false;  // start `memsim_binary run` per point instead of forking
    std::string memsim_binary;  // what to run for each point then (normally this very program)
    bool later_round = false;   // a find's later round: the earlier rounds' points stay
};

struct SweepTally {
    std::size_t points = 0, ok = 0, failed = 0;
    std::vector<std::string> files;  // results.csv and the plots, as written
    std::string table;               // one row per point (sim/app/sweep/sweep_table.h), what `memsim sweep` prints
};

SweepTally run_sweep(const SweepPlan& plan, const std::string& dir, const SweepRunOptions& options, std::ostream& progress);
// Returns the number of jobs written to DIR/jobs.txt.
std::size_t emit_sweep_jobs(const SweepPlan& plan, const std::string& dir, const std::string& memsim_binary);
// `plots` as write_sweep_plots takes them (find marks its answer).
SweepTally merge_sweep(const std::string& dir, const PlotOptions& plots = {});

// The running program's own path (/proc/self/exe).
std::string current_executable();
// Points run by this program: `jobs` at a time (0 or less: one per core), progress
// lines when stderr is a terminal. The other fields of `run` are left as they are.
void run_points_here(SweepRunOptions& run, int jobs);

}  // namespace memsim
