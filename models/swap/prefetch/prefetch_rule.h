// When the reads of a backward operator go into the disk queue (policy.swap.prefetch),
// under async swapping. At the start of each backward op the engine offers the read
// groups still unissued, in op order; a rule answers, group by group, whether to issue
// that group now. It decides from a read-only view of the queue's predictions and the
// compute ahead; it owns no engine state. One rule per file, found from the table below.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/policy_table.h"

namespace memsim {

// What a prefetch rule may look at; implemented by the engine's swap scheduler.
class PrefetchView {
public:
    virtual ~PrefetchView() = default;
    [[nodiscard]] virtual double now_ms() const = 0;
    [[nodiscard]] virtual double op_ms(int op) const = 0;                  // op's compute time on this GPU
    [[nodiscard]] virtual double compute_between(int from, int to) const = 0;  // start of `from` to start of `to`
    [[nodiscard]] virtual bool disk_idle() const = 0;                      // nothing queued or in flight
    [[nodiscard]] virtual double disk_free_at_ms() const = 0;              // the queue's own prediction
    [[nodiscard]] virtual double group_read_ms(int consumer) const = 0;    // its reads, if issued alone
    [[nodiscard]] virtual bool group_fits(int consumer) const = 0;         // its reads fit the budget now
};

class PrefetchRule {
public:
    virtual ~PrefetchRule() = default;
    // Called once at the start of backward op `op`, before the first issue_now.
    virtual void begin(const PrefetchView& /*view*/, int /*op*/) {}
    // Issue the reads for op `group` (>= op; groups come in order) now? False ends the
    // op's round: later groups wait for the next op start.
    virtual bool issue_now(const PrefetchView& view, int op, int group) = 0;
};

// A rule's parameter as a scenario writes it: none (`eager`), an op count
// (`lead_ops: N`) or a duration (`lead_ms: T`).
enum class PrefetchParam { None, Ops, Ms };

struct PrefetchParams {
    int lead_ops = 0;
    double lead_ms = 0.0;
};

struct PrefetchFactory {
    PrefetchParam param = PrefetchParam::None;
    std::unique_ptr<PrefetchRule> (*make)(const PrefetchParams&) = nullptr;
};

using PrefetchRow = PolicyRow<PrefetchFactory>;

// Every user-selectable rule, in the order --help and error suggestions list them.
std::span<const PrefetchRow> prefetch_rules();
// The name as a scenario writes it: "eager", "lead_ops: N", "lead_ms: T".
std::string prefetch_usage(const PrefetchRow& row);

// A read not yet issued must also fit the budget, except the current op's own reads
// (they are needed now; the allocation waits or evicts).
inline bool fits_or_due(const PrefetchView& view, int op, int group) { return group == op || view.group_fits(group); }

}  // namespace memsim
