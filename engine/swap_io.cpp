#include "engine/swap_io.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/run_result.h"
#include "engine/semantics_rules.h"

namespace memsim {

SwapIo::SwapIo(const EngineContext& ctx)
    : w_(ctx.workload), tensors_(ctx.tensors), memory_(ctx.memory), disk_(ctx.disk), clock_(ctx.clock), log_(ctx.log),
      rules_(ctx.rules), write_seq_(ctx.workload.tensors.size(), 0) {}

void SwapIo::write(TensorId t, int op) {
    TensorState& st = tensors_[t];
    st.writing = true;
    st.written = false;
    set_keep_resident(t, false);
    write_seq_[t] = ++next_write_seq_;
    in_flight_writes_.emplace(next_write_seq_, t);
    disk_.enqueue(true, t, op);
}

void SwapIo::read(TensorId t, int op) {
    memory_.allocate(t, op);  // memory is taken when the read is issued
    tensors_[t].reading = true;
    disk_.enqueue(false, t, op);
}

void SwapIo::swap_in_now(TensorId t, int op) {
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
    if (disk_.cancel_write(t)) {
        st.writing = false;
        set_keep_resident(t, false);
        end_write(t);
        ++counts_.cancelled_writes;
        log_.mark(mark::kCancelWrite, clock_.now(), op, t, w_.tensors[t].bytes);
    }
    if (st.written) {
        // `written` means "listed, memory held until a sync point": both or neither.
        if (std::find(written_unfreed_.begin(), written_unfreed_.end(), t) == written_unfreed_.end())
            throw InvariantError(fmt::format("op {}: tensor {} is marked written but not waiting to be freed", op,
                                             w_.tensors[t].name));
        st.written = false;
        std::erase(written_unfreed_, t);
    }
}

void SwapIo::spill(TensorId t, int op) {
    write(t, op);
    clock_.wait_until([&] { return !tensors_[t].writing; }, op, "waiting for an eviction to disk", {t});
}

bool SwapIo::writes_will_free() const { return in_flight_writes_.size() > kept_writes_; }

void SwapIo::on_io_done(const IoRequest& r) {
    TensorState& st = tensors_[r.tensor];
    if (r.write) {
        counts_.bytes_written += r.bytes;
        ++counts_.writes;
        st.writing = false;
        st.has_disk_copy = true;
        end_write(r.tensor);
        if (st.keep_resident) return;
        rules_.on_write_done(r.tensor, r.op);
    } else {
        counts_.bytes_read += r.bytes;
        ++counts_.reads;
        st.reading = false;
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
