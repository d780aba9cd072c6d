// When swap-outs and swap-ins are issued and waited for (policy.swap.mode): a mode is
// the scheduler's behaviour at operator boundaries, written against the actions the
// engine's swap scheduler offers. One mode per file, found from the table below.
#pragma once

#include <memory>
#include <span>

#include "models/policy_table.h"

namespace memsim {

// What a swap mode may do; implemented by the engine's swap scheduler. "Group" is the
// reads planned for one backward op; "writes after op" are the swap-outs planned after
// a forward op.
class SwapActions {
public:
    virtual ~SwapActions() = default;
    [[nodiscard]] virtual int forward_end() const = 0;  // first backward op
    [[nodiscard]] virtual int op_count() const = 0;
    virtual void issue_reads(int consumer, int at_op) = 0;  // the group's reads of tensors on disk
    virtual void wait_reads(int consumer) = 0;
    virtual void issue_writes_after(int op) = 0;
    virtual void wait_writes_after(int op, int at_op, const char* why) = 0;
    // A sync point: writes that ended are freed now (when the semantics defer frees).
    virtual void free_finished_writes(int at_op) = 0;
    virtual void make_inputs_resident(int op) = 0;       // every missing input read at once, then waited for
    virtual void prefetch(int op) = 0;                   // the prefetch rule's round at op start
    // Reference semantics only: the memory of every pending write is freed at the end
    // of the forward pass and the first reads are queued behind them; false otherwise.
    virtual bool free_pending_writes_at_forward_end() = 0;
};

// What a mode is, written in its row: the scenario checks, the warnings and `compare`
// read them from the table without building a mode, and a mode built from its row
// answers them too (for the engine).
struct SwapModeFlags {
    bool moves_tensors = true;  // false: no swapping at all
    // Semantics that defer frees of finished writes free them at this mode's sync points.
    bool has_sync_points = true;
    // Reads are issued by the prefetch rule (policy.swap.prefetch matters).
    bool uses_prefetch_rule = false;
};

class SwapMode {
public:
    virtual ~SwapMode() = default;
    [[nodiscard]] bool moves_tensors() const { return flags_.moves_tensors; }
    [[nodiscard]] bool has_sync_points() const { return flags_.has_sync_points; }
    [[nodiscard]] bool uses_prefetch_rule() const { return flags_.uses_prefetch_rule; }
    virtual void after_forward_op(SwapActions& /*a*/, int /*op*/) {}
    virtual void before_backward_op(SwapActions& /*a*/, int /*op*/) {}

private:
    friend struct SwapModeBuilder;
    SwapModeFlags flags_;
};

using SwapModeRow = PolicyRow<std::unique_ptr<SwapMode> (*)(const PolicyParams&), SwapModeFlags>;

std::span<const SwapModeRow> swap_modes();
// The row's mode with the `given` parameters (its defaults for the rest) and its flags.
std::unique_ptr<SwapMode> make_swap_mode(const SwapModeRow& row, const ParamValues& given = {});

}  // namespace memsim
