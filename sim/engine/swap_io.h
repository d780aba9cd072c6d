// Swapping at the tensor level: a swap-out holds the tensor's memory until its write
// ends, a swap-in allocates before its read is queued; a tensor needed again while its
// write is pending is used in place. When a write ends the semantics' rules free its
// tensor at once, or (the reference's) at the swap mode's next sync point.
//
// On the node of docs/tiers.md each swap-out is placed by the placement rule (host RAM or
// the disk) and its bytes counted on that tier until read back or dropped (its tensor
// released, or kept on the GPU after all): a tensor's swapped copy is on one tier only.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "sim/engine/transfer_queue.h"
#include "sim/engine/zeroed_array.h"
#include "sim/engine/memory_manager.h"
#include "models/swap/placement/placement_rule.h"
#include "sim/engine/host_tier.h"

namespace memsim {

class SwapIo final : public Spiller, public IoListener {
public:
    explicit SwapIo(const EngineContext& ctx);

    void write(TensorId t, int op);
    void read(TensorId t, int op);
    void swap_in_now(TensorId t, int op);  // a read, if the tensor is on disk and not already coming
    // Needed before its swap-out freed it: used in place and kept. A write not yet started
    // is dropped from the queue; one in flight completes but frees nothing.
    void use_in_place(TensorId t, int op);
    void free_finished_writes(int op);  // frees every finished write in FIFO order
    void free_pending_writes(int op);   // the reference's end-of-forward quirk
    // A written tensor's memory: freed now (it is on disk), or at the next sync point
    // (free_finished_writes).
    void free_to_disk(TensorId t, int op);
    void free_at_next_sync_point(TensorId t);
    // The tensor will not be read back (released, or resident after all): its swapped
    // copy, if any, leaves its tier.
    void drop_copy(TensorId t);
    // Per tier, the bytes of this GPU's tensors whose swapped copy is there at the end;
    // throws InvariantError for a tensor on the GPU that also has a copy with no transfer
    // in flight (the node checks in = out + resident with the sums: HostTier).
    [[nodiscard]] TierBytes tier_resident() const;
    // What the swap side moved: the summary's swap counters.
    struct Counts {
        std::uint64_t writes = 0, reads = 0;                  // completed
        std::uint64_t bytes_written = 0, bytes_read = 0;
        std::uint64_t freed_bytes = 0;                        // left device memory when their write completed
        std::uint64_t cancelled_writes = 0;                   // dropped from the queue: needed again first
    };
    [[nodiscard]] const Counts& counts() const { return counts_; }

    // The tier a swap-out of `t` issued now at `op` would go to (the placement rule on the
    // node, the disk without one); none when the rule's only tier cannot take it.
    [[nodiscard]] std::optional<TierId> tier_for(TensorId t, int op) const;

    TierId spill(TensorId t, int op) override;
    void wait_spilled(TensorId t, int op) override;
    [[nodiscard]] bool writes_will_free() const override;
    void on_io_done(const IoRequest& r) override;

private:
    void end_write(TensorId t);
    // The tier of a swap-out (on the node, takes its host RAM).
    TierId place(TensorId t, int op);
    void stage(TensorId t, int op, bool out, TierId tier);  // a bounce buffer for a transfer to or from a staged tier
    void unstage(TensorId t);
    // Every change of keep_resident goes through here: kept_writes_ counts the writes in
    // flight whose tensor stays (so writes_will_free() is O(1), not a scan).
    void set_keep_resident(TensorId t, bool keep);

    const Workload& w_;
    TensorTable& tensors_;
    MemoryManager& memory_;
    TransferQueue& queue_;
    Clock& clock_;
    EventLog& log_;
    SemanticsRules& rules_;
    std::map<std::uint64_t, TensorId> in_flight_writes_;  // by issue order
    ZeroedArray<std::uint64_t> write_seq_;                // per tensor: its key in in_flight_writes_, 0: none
    std::uint64_t next_write_seq_ = 0;
    std::size_t kept_writes_ = 0;  // in-flight writes whose tensor has keep_resident
    std::vector<TensorId> written_unfreed_;
    Counts counts_;
    HostTier& host_;
    std::unique_ptr<PlacementRule> placement_;  // on the node only
    bool bounce_;
    std::vector<TierSpec> tiers_;   // the platform's (which are staged by the path)
    // Per tensor: 1 + the tier holding its completed swapped copy, 0: none (copy_of).
    ZeroedArray<TierId> copy_;
    ZeroedArray<char> staged_;  // per tensor: a bounce buffer is held for its transfer
    [[nodiscard]] TierId copy_of(TensorId t) const { return copy_[t] == 0 ? kNoTier : static_cast<TierId>(copy_[t] - 1); }
};

}  // namespace memsim
