// async: writes are queued after their op and never waited for by the stream (only by
// an allocation that needs their memory); reads are issued by the prefetch rule.
#include "models/swap/mode/swap_mode.h"

namespace memsim {

namespace {

class AsyncMode final : public SwapMode {
public:
    void after_forward_op(SwapActions& a, int op) override {
        a.free_finished_writes(op);  // the reference frees finished writes only at op ends
        a.issue_writes_after(op);
    }

    void before_backward_op(SwapActions& a, int op) override {
        if (op == a.forward_end()) a.free_pending_writes_at_forward_end();
        // This op's own inputs first: prefetches for later ops must not queue ahead of them.
        a.make_inputs_resident(op);
        a.prefetch(op);
        a.wait_reads(op);
    }
};

}  // namespace

std::unique_ptr<SwapMode> make_async_mode(const PolicyParams&) { return std::make_unique<AsyncMode>(); }

}  // namespace memsim
