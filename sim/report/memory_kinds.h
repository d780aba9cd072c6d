// Memory by kind over a run: what the live bytes are made of at each moment, from the
// log's residency changes (which tensor took or gave back memory, when) and the
// workload's tensors:
//   weights / inputs   constants and tensors without a producer (weights, inputs, and
//                      optimizer state: a profile does not tell it apart from weights)
//   activations        outputs of forward operators (op < forward_end)
//   gradients          outputs of backward operators (op >= forward_end)
//   scratch            an operator's temporary workspace
//   swapping out / in  a tensor while its swap-out is being written, and from the
//                      moment its swap-in took memory until the read ends, whatever
//                      tier it goes to or comes from (host RAM, a disk)
// A workload that says roles (docs/workloads.md, "Roles") fills by role instead, where a
// tensor has one: parameters, gradients, optimizer state, activations, inputs (the kinds
// after SwappingIn; a tensor of role `other` keeps the rule above).
// Aliases hold no memory of their own. Empty when the log has no residency changes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim {

enum class MemoryKind { Weights, Activations, Gradients, Scratch, SwappingOut, SwappingIn, Parameters, OptimizerState, Inputs };
inline constexpr std::size_t kMemoryKinds = 9;

const char* memory_kind_name(MemoryKind kind);

struct MemoryByKindRow {
    double time_ms = 0.0;
    std::array<std::uint64_t, kMemoryKinds> bytes{};  // indexed by MemoryKind
};

// One row per change, in time order (several per instant too, like the memory samples).
std::vector<MemoryByKindRow> memory_by_kind(const EventLog& log, const Workload& workload);

}  // namespace memsim
