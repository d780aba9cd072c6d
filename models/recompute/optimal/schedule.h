// A plan of the program's class (docs/optimal.md): stage k ends with the Compute of op
// k and starts with the recomputations before it, in op order, each op at most once.
// Given which ops each stage recomputes, every value is kept exactly as long as it is
// still read (or to the end, for results), so the schedule alone fixes the memory: the
// check below measures it as the engine does, and to_exec_plan writes the same plan
// with its Release steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/recompute/optimal/remat_problem.h"
#include "models/workload/exec_plan.h"

namespace memsim::optimal {

struct Schedule {
    std::vector<std::vector<int>> recompute;  // per stage (op index), the ops recomputed before its Compute, ascending
};

inline constexpr int kEndOfIteration = -2;

// One copy of a value: created by run `created` (-1: resident from the start) and
// resident until after run `last_read` (kEndOfIteration: to the end), where runs are the
// steps that compute or recompute, numbered in plan order.
struct Residency {
    int value = -1;
    int created = -1;
    int last_read = -1;
};

struct ScheduleCheck {
    bool valid = true;
    std::string error;             // the first read that finds its value absent
    std::uint64_t peak_bytes = 0;  // live bytes at the worst moment (os accounting, scratch included)
    int peak_run = -1;             // the run where it happens (-1: before op 0)
    double recompute_ms = 0.0;
    double time_ms = 0.0;          // every Compute and Recompute, summed in plan order
    std::size_t recomputed_ops = 0;
};

// The runs of a schedule, in order: (stage, op, is the Compute of the stage).
struct Run {
    int stage = 0;
    int op = 0;
    bool compute = true;
};
std::vector<Run> schedule_runs(const RematProblem& p, const Schedule& s);

// Every copy the schedule makes, in order of creation; throws std::logic_error when
// the schedule is not valid (check_schedule says why).
std::vector<Residency> residencies(const RematProblem& p, const Schedule& s, const std::vector<Run>& runs);

ScheduleCheck check_schedule(const RematProblem& p, const Schedule& s);

// The plan the engine runs: the runs as Compute and Recompute steps, each copy released
// right after its last read unless the Compute step's own release list frees it.
ExecPlan to_exec_plan(const RematProblem& p, const Schedule& s);

// The stages of a plan's recomputations (the ops recomputed before each Compute, sorted,
// each once): any plan converted into the program's class. Recomputations after the last
// Compute are dropped.
Schedule from_exec_plan(const RematProblem& p, const ExecPlan& plan);

Schedule empty_schedule(const RematProblem& p);

}  // namespace memsim::optimal
