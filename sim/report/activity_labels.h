// What each activity and instant event of a run says in words ("swap out tensor 17
// (3.10 MiB)", "wait for tensor 17 (swap-in)", "recompute op 418 (conv) for tensor 17"),
// written once here so that events.csv, the Gantt chart and the Chrome trace agree.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim {

// Tensor names from the workload when it is known, else "#ID".
class TensorNames {
public:
    explicit TensorNames(const Workload* workload = nullptr) : workload_(workload) {}
    std::string operator()(int tensor) const;
    // The name with where the tensor comes from: "x316 (output of op 0 convolution)";
    // a DTR log's "x54$" is the version of x54 an in-place operator wrote:
    // "x54$ (x54 as op 412 add_ changed it in place)".
    std::string described(int tensor) const;
    // "tensor 17", "tensors 3, 5, 9", "tensors 3, 5, 9 and 4 more"
    std::string list(std::span<const int> tensors) const;
    bool knows_names() const { return workload_ != nullptr; }

private:
    const Workload* workload_;
};

// The tensors an activity is about: the one it is for (a stall's, a recomputation's)
// when recorded, else the tensors it moves or produces (no heap block for one or two).
OpList<int, 2> subject_tensors(const Activity& a);

std::string activity_label(const Activity& a, const TensorNames& names);
std::string mark_label(const Mark& m, const TensorNames& names);
// "evictions to disk", "drops", "cancelled writes"; a new kind keeps its own name.
std::string mark_display_name(const std::string& kind);

}  // namespace memsim
