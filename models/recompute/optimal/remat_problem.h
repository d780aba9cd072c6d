// The recomputation program's view of a workload (docs/optimal.md, "What the program
// models"): the storages a plan keeps, drops and recomputes ("values"), what each
// operator reads and creates, and the bytes each step allocates while it runs, counted
// as the os allocator and the engine count a plan's steps (models/workload/exec_plan.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim::optimal {

inline constexpr int kBeforeFirstOp = -1;

// A storage a plan tracks: an operator output (recomputable by re-running its
// producer), a constant, or a scratch buffer its operator never frees.
struct Value {
    TensorId tensor = -1;
    std::uint64_t bytes = 0;
    int origin = kBeforeFirstOp;  // the op whose Compute step creates it; kBeforeFirstOp: resident from the start
    bool recomputable = false;    // a Recompute of `origin` creates it again (operator outputs only)
    int freed_by = -1;            // the op whose Compute step frees it (its release list); -1: none
    bool keep_to_end = false;     // resident when the iteration ends (a result, a constant nobody releases)
    std::vector<int> readers;     // ops reading it (an alias read reads its storage), ascending, each once
};

struct OpInfo {
    double cost_ms = 0.0;
    std::vector<int> inputs;           // values read, each once
    std::vector<int> outputs;          // values a Recompute creates (its non-alias outputs)
    std::vector<int> created;          // values its Compute creates: arrivals, outputs, scratch never freed
    std::vector<int> arrivals;         // constants its Compute makes resident first (DTR logs)
    std::uint64_t output_bytes = 0;    // of `outputs`
    std::uint64_t compute_bytes = 0;   // allocated while its Compute runs: `created` + all its scratch
    std::uint64_t recompute_bytes = 0; // allocated while a Recompute runs: outputs + the scratch it frees
    [[nodiscard]] bool recomputable() const { return !outputs.empty(); }
};

struct RematProblem {
    const Workload* workload = nullptr;
    std::uint64_t budget = 0;
    std::vector<Value> values;
    std::vector<OpInfo> ops;
    std::vector<int> value_of_tensor;  // tensor -> value (aliases -> their storage's), -1 for none
    [[nodiscard]] int op_count() const { return static_cast<int>(ops.size()); }
    [[nodiscard]] double compute_ms() const;  // every op once, in op order
};

RematProblem make_problem(const Workload& w, std::uint64_t budget_bytes);

// Why no plan can fit the budget, or none: a necessary condition checked at each op's
// Compute step (its inputs, what it allocates, and whatever must be resident then:
// constants still to be read, results at the end).
std::optional<std::string> infeasibility_reason(const RematProblem& p);

}  // namespace memsim::optimal
