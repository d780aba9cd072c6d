// Where the forward pass ends when the scenario does not say (docs/workloads.md).
#pragma once

#include <string>

#include "models/workload/workload.h"

namespace memsim {

struct ForwardEndGuess {
    int forward_end = 0;
    std::string rule;  // human explanation of how it was obtained
    // Single-input producers (layout copies) looked through to see the prediction and
    // the junction's output read again (0: read directly, or rule 3 did not fire).
    int copies_looked_through = 0;
};

// Rule: the label is every tensor derived from a OneHot operator. The loss junction J
// is the first operator that reads a label tensor together with the deepest
// non-label tensor (the prediction: longest chain of operators behind it). If the
// prediction is read again later together with J's output, J computed the loss and
// belongs to the forward pass (forward_end = J + 1); otherwise J already is the
// gradient seed (forward_end = J). "Read again" compares tensors after resolving each
// (the prediction, J's outputs, every later input) through its chain of single-input
// producers: a layout copy (MNN inserts Rasters around the loss) stands for what it
// copies; op types are not looked at. Without a OneHot operator: the boundary after
// which live bytes are highest (every activation is alive when the forward pass ends).
ForwardEndGuess infer_forward_end(const Workload& w);

}  // namespace memsim
