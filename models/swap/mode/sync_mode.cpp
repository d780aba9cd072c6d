// sync: the writes after a forward op and the reads for a backward op block the GPU
// stream until they are done.
#include "models/swap/mode/swap_mode.h"

namespace memsim {

namespace {

class SyncMode final : public SwapMode {
public:
    void after_forward_op(SwapActions& a, int op) override {
        a.issue_writes_after(op);
        a.wait_writes_after(op, op, "waiting for swap-outs (sync)");
    }

    void before_backward_op(SwapActions& a, int op) override {
        a.issue_reads(op, op);
        a.wait_reads(op);
    }
};

}  // namespace

std::unique_ptr<SwapMode> make_sync_mode(const PolicyParams&) { return std::make_unique<SyncMode>(); }

}  // namespace memsim
