// When the reads of a backward operator go into the disk queue (policy.swap.prefetch),
// under async swapping. At the start of each backward op the engine offers the read
// groups still unissued, in op order; a rule answers, group by group, whether to issue
// that group now. It decides from a read-only view of the queue's predictions and the
// compute ahead; it owns no engine state. One rule per file, found from the table below.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/policy_table.h"
#include "models/swap/prefetch/range_add_max.h"

namespace memsim {

// What a prefetch rule may look at; implemented by the engine's swap scheduler.
class PrefetchView {
public:
    virtual ~PrefetchView() = default;
    [[nodiscard]] virtual double now_ms() const = 0;
    [[nodiscard]] virtual int op_count() const = 0;
    [[nodiscard]] virtual double op_ms(int op) const = 0;                  // op's compute time on this GPU
    [[nodiscard]] virtual double compute_between(int from, int to) const = 0;  // start of `from` to start of `to`
    [[nodiscard]] virtual bool disk_idle() const = 0;                      // nothing queued or in flight
    [[nodiscard]] virtual double disk_free_at_ms() const = 0;              // the queue's own prediction
    [[nodiscard]] virtual double group_read_ms(int consumer) const = 0;    // its reads, if issued alone
    [[nodiscard]] virtual bool group_fits(int consumer) const = 0;         // its reads fit the budget now
    // Its reads if issued later: also those of tensors still being written (their write
    // may end first); the disk queue's own per-read prediction.
    [[nodiscard]] virtual double group_read_ms_later(int consumer) const = 0;
    [[nodiscard]] virtual std::uint64_t group_bytes(int consumer) const = 0;  // what issuing it holds (reads, kept writes)
    // Memory: in use now, the budget, and the in-use peak this run reaches with every read
    // issued only when its consumer starts (none: not measured, the rule did not ask).
    [[nodiscard]] virtual std::uint64_t live_bytes() const = 0;
    [[nodiscard]] virtual std::optional<std::uint64_t> budget_bytes() const = 0;
    [[nodiscard]] virtual std::optional<std::uint64_t> no_prefetch_peak_bytes() const = 0;
    // The plan's live bytes during op `op` (writes and reads instantaneous, no prefetch)
    // and what op `op` itself allocates when it starts.
    [[nodiscard]] virtual std::int64_t planned_live_during(int op) const = 0;
    [[nodiscard]] virtual std::int64_t op_allocation_bytes(int op) const = 0;
};

class PrefetchRule {
public:
    virtual ~PrefetchRule() = default;
    // Called once at the start of backward op `op`, before the first issue_now.
    virtual void begin(const PrefetchView& /*view*/, int /*op*/) {}
    // Issue the reads for op `group` (>= op; groups come in order) now? False ends the
    // op's round: later groups wait for the next op start.
    virtual bool issue_now(const PrefetchView& view, int op, int group) = 0;
    // Its memory cap without a budget is the run's no-prefetch peak
    // (PrefetchView::no_prefetch_peak_bytes), which the engine then measures first.
    [[nodiscard]] virtual bool caps_at_no_prefetch_peak() const { return false; }
};

// A row: the rule's name, summary, factory and parameters (lead_ops declares its op
// count, budget its optional memory cap); the factory reads them by key.
using PrefetchRow = PolicyRow<std::unique_ptr<PrefetchRule> (*)(const PolicyParams&)>;

// Every user-selectable rule, in the order --help and error suggestions list them.
std::span<const PrefetchRow> prefetch_rules();

// Budget-aware admission of early reads (the budget and just_in_time rules): a group
// issued at op `op` for op `group` holds its bytes over ops op..group-1 on top of what
// the plan has in use then. The in-use bytes over that span are predicted from now on:
// what is in use now, plus the plan's growth since op `op` (its own allocations
// included), minus the early groups already issued that their consumers take over by
// then. A group is admitted when that prediction plus its bytes stays under the cap at
// every op of the span (and its bytes fit the budget now): so an early read never
// forces an eviction by the plan's account. The cap is the budget, else the user's cap
// (`{budget: {cap: SIZE}}`), else the in-use peak of the same run with every read on
// demand (prefetching never raises the peak above what it would be without prefetch;
// docs/swap.md says why that peak is measured by a run rather than taken from the plan);
// with both a budget and a user cap, the lower.
//
// The prediction at op k is now + plan(k) - taken(k), with taken(k) the bytes of early
// groups issued for consumers in (op, k]. Kept as plan(k) - issued(k) in a RangeAddMax
// (issued(k): every early group ever issued for a consumer up to k; issuing one for op g
// subtracts its bytes from every k >= g), plus issued(op), the groups already taken over
// (read off the tree at each begin: plan(op) minus its value at op), so a check is one
// range maximum, O(log n), not a walk over the span. The tree is built from the plan at
// the first begin: the engine sets the plan once, before op 0.
class PrefetchMemoryGuard {
public:
    explicit PrefetchMemoryGuard(std::optional<std::uint64_t> user_cap = std::nullopt);
    ~PrefetchMemoryGuard();
    // At the start of op `op`, before its first admits: early groups for ops up to `op`
    // have been taken over by their consumers.
    void begin(const PrefetchView& view, int op);
    [[nodiscard]] bool admits(const PrefetchView& view, int op, int group) const;
    void issued(int group, std::uint64_t bytes);
    [[nodiscard]] bool has_user_cap() const { return user_cap_.has_value(); }

private:
    std::int64_t taken_over_ = 0;  // issued(op) at the current op: early groups whose consumer has started
    std::unique_ptr<RangeAddMax> planned_minus_issued_;  // plan(k) - issued(k), built at the first begin
    std::optional<std::uint64_t> user_cap_;
};

// Every read only when its consumer starts: the baseline that measures the no-prefetch
// peak (not a user-selectable rule: `lead_ops: 0` is the same without a budget).
std::unique_ptr<PrefetchRule> make_on_demand_prefetch();

// A read not yet issued must also fit the budget, except the current op's own reads
// (they are needed now; the allocation waits or evicts).
inline bool fits_or_due(const PrefetchView& view, int op, int group) { return group == op || view.group_fits(group); }

}  // namespace memsim
