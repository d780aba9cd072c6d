#include "sim/engine/swap_io.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "sim/engine/run_result.h"
#include "sim/engine/semantics_rules.h"

namespace memsim {

SwapIo::SwapIo(const EngineContext& ctx)
    : w_(ctx.workload),
      tensors_(ctx.tensors),
      memory_(ctx.memory),
      queue_(ctx.queue),
      clock_(ctx.clock),
      log_(ctx.log),
      rules_(ctx.rules),
      write_seq_(ctx.workload.tensors.size()),
      host_(ctx.host),
      placement_(ctx.config.platform.has_host_tier() && ctx.config.make_placement ? ctx.config.make_placement() : nullptr),
      bounce_(ctx.config.swap_path.bounce),
      tiers_(ctx.config.platform.tiers()),
      copy_(ctx.workload.tensors.size()),
      staged_(ctx.workload.tensors.size()) {}

std::optional<TierId> SwapIo::tier_for(TensorId t, int op) const {
    if (!placement_) return kDefaultTier;
    const std::uint64_t bytes = w_.tensors[t].bytes;
    PlacementInput in{bytes, {}, bounce_ ? bytes : 0, -1};
    for (TierId tier = 0; tier < kTierCount; ++tier) in.free[tier] = host_.free_bytes(tier);
    if (tensors_.has_future_use(t)) in.ms_to_next_use = tensors_.ms_until_next_use(t, std::max(op, 0));
    return placement_->place(in);
}

TierId SwapIo::place(TensorId t, int op) {
    if (!placement_) return kDefaultTier;
    const std::uint64_t bytes = w_.tensors[t].bytes;
    const std::optional<TierId> tier = tier_for(t, op);
    if (!tier)
        throw RunStopped{"host_full", fmt::format("op {}: tensor {} ({} B) does not fit in host RAM: {}", op, w_.tensors[t].name,
                                                  bytes, host_.state_text())};
    if (tiers_[*tier].staged_by_path) stage(t, op, true, *tier);
    host_.take(bytes, *tier);
    return *tier;
}

void SwapIo::stage(TensorId t, int op, bool out, TierId tier) {
    if (!placement_ || !bounce_) return;
    const std::uint64_t bytes = w_.tensors[t].bytes;
    if (!host_.fits(bytes))
        throw RunStopped{"host_full", fmt::format("op {}: tensor {} ({} B) finds no room in host RAM for the bounce buffer of "
                                                  "its swap-{} {} (policy.swap.path: direct needs none): {}",
                                                  op, w_.tensors[t].name, bytes, out ? "out to" : "in from", tier_row(tier).name,
                                                  host_.state_text())};
    host_.take(bytes);
    host_.staged_bytes += bytes;
    staged_[t] = 1;
}

void SwapIo::unstage(TensorId t) {
    if (!staged_[t]) return;
    staged_[t] = 0;
    host_.staged_bytes -= w_.tensors[t].bytes;
    host_.release(w_.tensors[t].bytes);
}

void SwapIo::drop_copy(TensorId t) {
    if (const TierId held = copy_of(t); held != kNoTier) {
        const std::uint64_t bytes = w_.tensors[t].bytes;
        HostTier::TierCounts& tier = host_.tiers[held];
        tier.out += bytes;
        tier.resident -= bytes;
        host_.release(bytes, held);
        copy_[t] = 0;  // written only where there was a copy: a run that never swaps never touches copy_
    }
    tensors_[t].copy_tier = kDefaultTier;
}

TierBytes SwapIo::tier_resident() const {
    TierBytes bytes{};
    for (TensorId t = 0; t < static_cast<TensorId>(copy_.size()); ++t) {
        const TierId held = copy_of(t);
        if (held == kNoTier) continue;
        bytes[held] += w_.tensors[t].bytes;
        // On the GPU with a copy: only while the copy is being written or read back, or
        // written and waiting for its sync point to free the GPU's.
        const TensorState& st = tensors_[t];
        if (st.where == Where::Resident && !st.written && !st.writing && !st.reading)
            throw InvariantError(
                fmt::format("tensor {} is on the GPU and has a swapped copy on tier '{}' with no transfer in flight",
                            w_.tensors[t].name, tier_row(held).name));
    }
    return bytes;
}

void SwapIo::write(TensorId t, int op) {
    TensorState& st = tensors_[t];
    st.writing = true;
    st.written = false;
    set_keep_resident(t, false);
    write_seq_[t] = ++next_write_seq_;
    in_flight_writes_.emplace(next_write_seq_, t);
    drop_copy(t);  // a copy left from an earlier swap-out is replaced
    st.copy_tier = place(t, op);
    queue_.enqueue(true, t, op, st.copy_tier);
}

void SwapIo::read(TensorId t, int op) {
    memory_.allocate(t, op);  // memory is taken when the read is issued
    tensors_[t].reading = true;
    const TierId from = tensors_[t].copy_tier;
    if (tiers_[from].staged_by_path) stage(t, op, false, from);
    queue_.enqueue(false, t, op, from);
}

void SwapIo::swap_in_now(TensorId t, int op) {
    t = tensors_.storage(t);  // a read of a view reads its storage
    const TensorState& st = tensors_[t];
    if (st.where == Where::OnDisk && !st.reading) read(t, op);
}

void SwapIo::set_keep_resident(TensorId t, bool keep) {
    TensorState& st = tensors_[t];
    if (write_seq_[t] != 0 && st.keep_resident != keep) keep ? ++kept_writes_ : --kept_writes_;
    st.keep_resident = keep;
}

void SwapIo::end_write(TensorId t) {
    if (write_seq_[t] != 0 && tensors_[t].keep_resident) --kept_writes_;
    in_flight_writes_.erase(write_seq_[t]);
    write_seq_[t] = 0;
}

void SwapIo::use_in_place(TensorId t, int op) {
    TensorState& st = tensors_[t];
    set_keep_resident(t, true);
    if (queue_.cancel_write(t)) {
        st.writing = false;
        set_keep_resident(t, false);
        end_write(t);
        ++counts_.cancelled_writes;
        host_.release(w_.tensors[t].bytes, st.copy_tier);
        st.copy_tier = kDefaultTier;
        unstage(t);
        log_.mark(mark::kCancelWrite, clock_.now(), op, t, w_.tensors[t].bytes);
    }
    if (st.written) {
        // `written` means "listed, memory held until a sync point": both or neither.
        if (std::find(written_unfreed_.begin(), written_unfreed_.end(), t) == written_unfreed_.end())
            throw InvariantError(fmt::format("op {}: tensor {} is marked written but not waiting to be freed", op,
                                             w_.tensors[t].name));
        st.written = false;
        std::erase(written_unfreed_, t);
        drop_copy(t);  // stays on the GPU: the written copy will not be read
    }
}

TierId SwapIo::spill(TensorId t, int op) {
    write(t, op);
    return tensors_[t].copy_tier;
}

void SwapIo::wait_spilled(TensorId t, int op) {
    clock_.wait_until([&] { return !tensors_[t].writing; }, op, "waiting for an eviction to disk", {t});
}

bool SwapIo::writes_will_free() const { return in_flight_writes_.size() > kept_writes_; }

void SwapIo::on_io_done(const IoRequest& r) {
    TensorState& st = tensors_[r.tensor];
    unstage(r.tensor);
    HostTier::TierCounts& tier = host_.tiers[r.tier];
    if (r.write) {
        counts_.bytes_written += r.bytes;
        ++counts_.writes;
        st.writing = false;
        st.has_disk_copy = true;
        end_write(r.tensor);
        tier.in += r.bytes;
        tier.resident += r.bytes;
        copy_[r.tensor] = static_cast<TierId>(r.tier + 1);
        if (st.keep_resident) {
            if (st.where == Where::Resident) drop_copy(r.tensor);  // needed again while it was written: it stays
            return;
        }
        rules_.on_write_done(r.tensor, r.op);
    } else {
        counts_.bytes_read += r.bytes;
        ++counts_.reads;
        st.reading = false;
        tier.read += r.bytes;
        drop_copy(r.tensor);  // moved back to the GPU
    }
}

void SwapIo::free_at_next_sync_point(TensorId t) {
    tensors_[t].written = true;
    written_unfreed_.push_back(t);
}

void SwapIo::free_to_disk(TensorId t, int op) {
    memory_.free_memory(t, op);
    counts_.freed_bytes += w_.tensors[t].bytes;
    TensorState& st = tensors_[t];
    st.where = st.released ? Where::Absent : Where::OnDisk;
    st.written = false;
    if (st.released) drop_copy(t);
}

void SwapIo::free_finished_writes(int op) {
    for (TensorId t : written_unfreed_)
        if (tensors_[t].written) free_to_disk(t, op);
    written_unfreed_.clear();
}

void SwapIo::free_pending_writes(int op) {
    // Memory of every pending write is freed without waiting; the writes still occupy
    // the disk queue.
    for (const auto& [seq, t] : in_flight_writes_) tensors_[t].written = true, written_unfreed_.push_back(t);
    for (TensorId t : written_unfreed_) {
        TensorState& st = tensors_[t];
        if (st.written && st.where == Where::Resident && !st.keep_resident) {
            set_keep_resident(t, true);  // the write's completion must not free it again
            memory_.free_memory(t, op);
            counts_.freed_bytes += w_.tensors[t].bytes;
            st.where = Where::OnDisk;
            st.has_disk_copy = true;
        }
        // Whether freed here or kept (used in place before its write ended), nothing is
        // left to free at a later sync point: `written` must not outlive its list entry.
        st.written = false;
    }
    written_unfreed_.clear();
}

}  // namespace memsim
