// semi_sync: the writes issued after op i run alongside op i+1 and are waited for at its
// end; the reads for op i+1 run alongside op i.
#include "models/swap/mode/swap_mode.h"

namespace memsim {

namespace {

class SemiSyncMode final : public SwapMode {
public:
    void after_forward_op(SwapActions& a, int op) override {
        // The writes issued after op i-1 ran alongside op i; both must be done now.
        if (op > 0) {
            a.wait_writes_after(op - 1, op, "waiting for swap-outs (semi_sync)");
            a.free_finished_writes(op);
        }
        a.issue_writes_after(op);
    }

    void before_backward_op(SwapActions& a, int op) override {
        if (op == a.forward_end()) {
            // With forward_end 0 (a log annotated BACKWARD before its first op) no forward op issued writes.
            if (op > 0) a.wait_writes_after(op - 1, op, "waiting for the last swap-outs (semi_sync)");
            a.free_finished_writes(op);
            a.issue_reads(op, op);
            a.wait_reads(op);
        }
        if (op + 1 < a.op_count()) a.issue_reads(op + 1, op);  // read for op i+1 alongside op i
        a.wait_reads(op);
    }
};

}  // namespace

std::unique_ptr<SwapMode> make_semi_sync_mode(const PolicyParams&) { return std::make_unique<SemiSyncMode>(); }

}  // namespace memsim
