#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "models/alloc/allocator.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/workload/replay.h"
#include "models/swap/swap_plan.h"
#include "models/workload/input_error.h"
#include "sim/platform.h"

namespace memsim {

namespace sg = simgrid::s4u;

namespace {

std::uint64_t budget_from_ratio(const Workload& w, const Scenario& s) {
    std::unique_ptr<Allocator> allocator;
    try {
        allocator = make_allocator(s.policy.allocator);
    } catch (const std::invalid_argument& e) {
        throw InputError(fmt::format("{}: policy.allocator: {}", s.file, e.what()));
    }
    allocator->prepare(w);
    const std::uint64_t peak = replay_peak(w, *allocator);
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(peak) * *s.platform.memory_budget_ratio));
}

// Recomputation time beyond this multiple of the compute time stops a run as thrash
// when policy.recompute.max_overhead is not set.
constexpr double kRunawayOverhead = 100.0;

// A run that cannot go on: out of memory or thrashing. Becomes summary.status.
struct RunStopped {
    std::string status;
    std::string message;
};

enum class Where { Absent, Resident, OnDisk, Evicted };

struct TensorState {
    Where where = Where::Absent;
    bool writing = false;         // a write is queued or in flight; memory still held
    bool written = false;         // write done, memory held until the policy frees it
    bool keep_resident = false;   // the write must not free it: needed again before it ended
    bool reading = false;         // read queued or in flight; memory already allocated
    bool released = false;        // its last use is behind it
    bool has_disk_copy = false;
    int locks = 0;
    double last_access_ms = 0;
    int recomputes = 0;
    std::uint64_t evictable_seq = 0;  // when it last became evictable (allocation or last unlock)
    std::size_t next_use = 0;     // index into uses[t]
};

struct IoRequest {
    bool write = true;
    TensorId tensor = -1;
    std::uint64_t bytes = 0;
    int op = -1;
    double predicted_ms = 0;
};

class Simulation final : public EvictionView {
public:
    Simulation(const Workload& w, const Scenario& s, const ExecPlan& plan)
        : w_(w), s_(s), plan_(plan), state_(w.tensors.size()), uses_(w.tensors.size()) {
        allocator_ = make_allocator_checked();
        allocator_->prepare(w_);
        budget_ = s_.platform.memory_budget;
        if (!budget_ && s_.platform.memory_budget_ratio) budget_ = budget_from_ratio(w_, s_);
        reference_ = s_.policy.semantics == "reference";
        dtr_clock_ = s_.policy.semantics == "dtr";
        mode_ = s_.policy.swap.mode;
        // A plan with recompute or early-release steps (a static planner) decides every
        // tensor's lifetime itself: the engine runs it as written (see release()).
        planned_ = std::any_of(plan_.begin(), plan_.end(), [](const PlanStep& p) { return p.kind != StepKind::Compute; });
        validate_policy();
        for (std::size_t k = 0; k < plan_.size(); ++k) {
            const PlanStep& step = plan_[k];
            if (step.kind != StepKind::Compute) continue;
            for (TensorId t : w_.ops[step.op].inputs) uses_[t].push_back(k);
        }
        if (mode_ != "none") {
            // Hybrid: no static selection; every swap-out is an eviction decision.
            if (s_.policy.hybrid) swap_ = SwapPlan{std::vector<std::vector<TensorId>>(w_.ops.size()),
                                                   std::vector<std::vector<TensorId>>(w_.ops.size()), {}, 0};
            else if (s_.policy.swap.select == "feature_maps") swap_ = plan_feature_maps(w_);
            else if (s_.policy.swap.select == "budget") swap_ = plan_budget(w_, *budget_);
            else swap_ = SwapPlan{std::vector<std::vector<TensorId>>(w_.ops.size()),
                                  std::vector<std::vector<TensorId>>(w_.ops.size()), {}, 0};
        }
        if (!s_.policy.recompute.heuristic.empty())
            heuristic_ = make_eviction_heuristic(s_.policy.recompute.heuristic, s_.policy.recompute.params);
        read_ms_per_byte_ = 1e3 / s_.platform.disk.read_bytes_per_s;
        write_ms_per_byte_ = 1e3 / s_.platform.disk.write_bytes_per_s;
    }

    RunResult run() {
        // One activity per step plus I/O; about two memory samples per tensor.
        result_.log.activities.reserve(plan_.size() + plan_.size() / 4);
        result_.log.memory.reserve(2 * w_.tensors.size() + 16);
        platform_ = build_platform(s_.platform);
        mutex_ = sg::Mutex::create();
        cv_ = sg::ConditionVariable::create();
        start_s_ = sg::Engine::get_clock();
        sg::Actor::create("gpu_stream", platform_.gpu, [this] { gpu_actor(); });
        // Not a daemon: daemons outlive run() in SimGrid 3.32 and would wake up inside the
        // next simulation of the same process. The GPU stream tells it to stop instead.
        sg::Actor::create("disk_io", platform_.gpu, [this] { disk_actor(); });
        sg::Engine::get_instance()->run();
        // An error inside an actor first: it is the cause of an unfinished run.
        if (internal_error_) std::rethrow_exception(internal_error_);
        if (!finished_ && result_.summary.status == "ok")
            throw InvariantError("the simulation deadlocked before the last operator (an actor waited for an event nobody signals)");
        fill_summary();
        return std::move(result_);
    }

    // ---- EvictionView ----
    const Workload& workload() const override { return w_; }
    double now_ms() const override { return dtr_clock_ ? op_clock_ms_ : now(); }
    bool resident(TensorId t) const override { return state_[t].where == Where::Resident; }
    bool evicted(TensorId t) const override { return state_[t].where == Where::Evicted; }
    double last_access_ms(TensorId t) const override { return state_[t].last_access_ms; }
    int recompute_count(TensorId t) const override { return state_[t].recomputes; }
    double compute_cost_ms(TensorId t) const override {
        const int p = w_.tensors[t].producer;
        return p == kNoOp ? 0.0 : w_.ops[p].cost_ms;
    }
    std::uint64_t free_neighbour_bytes(TensorId t) const override { return allocator_->free_neighbour_bytes(t); }

private:
    std::unique_ptr<Allocator> make_allocator_checked() {
        try {
            return make_allocator(s_.policy.allocator);
        } catch (const std::invalid_argument& e) {
            throw InputError(fmt::format("{}: policy.allocator: {} (valid: {})", s_.file, e.what(),
                                         fmt::join(allocator_names(), ", ")));
        }
    }

    void validate_policy() {
        const auto fail = [&](const std::string& key, const std::string& what) {
            throw InputError(fmt::format("{}: {}: {}", s_.file, key, what));
        };
        const std::string& select = s_.policy.swap.select;
        if (mode_ != "none" && (select == "budget" || select == "fixed_buffer") && !budget_)
            fail("policy.swap.select", fmt::format("'{}' needs platform.memory.budget", select));
        if (!s_.policy.recompute.heuristic.empty() && !budget_)
            fail("policy.recompute.heuristic", "recomputation needs platform.memory.budget");
        if (s_.policy.hybrid && (mode_ == "none" || s_.policy.recompute.heuristic.empty()))
            fail("policy.hybrid", "needs both policy.swap.mode and policy.recompute.heuristic");
        if (reference_ && mode_ != "none" && select != "feature_maps")
            fail("policy.semantics", "reference semantics exist for the feature_maps selection only");
        if (reference_ && mode_ == "async" && s_.policy.swap.prefetch.kind != PrefetchKind::Eager)
            fail("policy.swap.prefetch", "reference semantics use their own read issue rule; leave prefetch at eager");
    }

    double now() const { return (sg::Engine::get_clock() - start_s_) * 1e3; }
    bool disk_idle() const { return queue_.empty() && !disk_busy_; }

    // ---- memory ----
    void sample() { result_.log.sample(now(), allocator_->footprint_bytes(), live_bytes_); }

    void allocate(TensorId t, int op, bool may_wait = true) {
        const std::uint64_t bytes = w_.tensors[t].bytes;
        if (w_.tensors[t].alias_of >= 0) {
            state_[t].where = Where::Resident;
            return;
        }
        if (budget_) make_room(bytes, op, may_wait);
        allocator_->allocate(t, bytes);
        live_bytes_ += bytes;
        live_peak_ = std::max(live_peak_, live_bytes_);
        TensorState& st = state_[t];
        st.where = Where::Resident;
        st.evictable_seq = ++insert_counter_;
        if (!dtr_clock_) st.last_access_ms = now_ms();  // dtr: stamped by lock and compute only
        sample();
    }

    void free_memory(TensorId t, int op) {
        TensorState& st = state_[t];
        if (w_.tensors[t].alias_of >= 0) {
            st.where = Where::Absent;
            return;
        }
        if (st.where != Where::Resident)
            throw InvariantError(fmt::format("op {}: tensor {} freed while not resident", op, w_.tensors[t].name));
        const std::uint64_t bytes = w_.tensors[t].bytes;
        if (live_bytes_ < bytes)
            throw InvariantError(fmt::format("op {}: freeing tensor {} would make memory negative", op, w_.tensors[t].name));
        allocator_->release(t);
        live_bytes_ -= bytes;
        st.where = Where::Absent;
        sample();
    }

    bool has_future_use(TensorId t) const { return state_[t].next_use < uses_[t].size(); }

    bool evictable(TensorId t) const {
        const TensorState& st = state_[t];
        const Tensor& tensor = w_.tensors[t];
        // In dtr semantics a tensor recomputed after its release stays an ordinary
        // evictable tensor (the published runtime); otherwise it has no future use left.
        return st.where == Where::Resident && !st.writing && !st.reading && st.locks == 0 && !tensor.constant &&
               tensor.producer != kNoOp && !tensor.scratch && tensor.alias_of < 0 &&
               (dtr_clock_ || has_future_use(t));
    }

    std::string why_not_evictable(TensorId t) const {
        const TensorState& st = state_[t];
        const Tensor& tensor = w_.tensors[t];
        if (tensor.scratch) return "scratch";
        if (tensor.constant || tensor.producer == kNoOp) return "constant";
        if (st.locks > 0) return "locked";
        if (st.writing || st.reading) return "in I/O";
        if (!heuristic_ && !swaps_on_demand()) return "no eviction policy";
        return "no later use: an output or awaiting its release";
    }

    bool writes_will_free() const {
        return std::any_of(in_flight_writes_.begin(), in_flight_writes_.end(),
                           [&](TensorId t) { return !state_[t].keep_resident; });
    }

    // Budget enforcement: wait for writes that will free memory, then evict (drop for
    // recomputation, or swap out), else the run is out of memory.
    void make_room(std::uint64_t bytes, int op, bool may_wait) {
        while (allocator_->footprint_if_allocated(bytes) > *budget_) {
            if (may_wait && writes_will_free()) {
                wait_until([&] { return !writes_will_free() || allocator_->footprint_if_allocated(bytes) <= *budget_; },
                           op, "waiting for swap-outs to free memory");
                continue;
            }
            if (drop_regenerated_dead(op)) continue;
            if (heuristic_ || swaps_on_demand()) {
                std::vector<TensorId> candidates;
                for (TensorId t : resident_order())
                    if (evictable(t)) candidates.push_back(t);
                if (!candidates.empty()) {
                    evict(choose_victim(candidates, op), op);
                    continue;
                }
            }
            std::uint64_t pinned = 0;
            std::vector<TensorId> held;
            for (TensorId t = 0; t < static_cast<TensorId>(state_.size()); ++t)
                if (state_[t].where == Where::Resident && !evictable(t) && w_.tensors[t].alias_of < 0) {
                    pinned += w_.tensors[t].bytes;
                    held.push_back(t);
                }
            // The largest non-evictable tensors and why each cannot go.
            std::sort(held.begin(), held.end(), [&](TensorId a, TensorId b) {
                return w_.tensors[a].bytes != w_.tensors[b].bytes ? w_.tensors[a].bytes > w_.tensors[b].bytes : a < b;
            });
            std::vector<std::string> largest;
            for (std::size_t k = 0; k < std::min<std::size_t>(3, held.size()); ++k)
                largest.push_back(fmt::format("{} {} B ({})", w_.tensors[held[k]].name, w_.tensors[held[k]].bytes,
                                              why_not_evictable(held[k])));
            throw RunStopped{"oom", fmt::format("out of memory at op {} ({}): needs {} B more, budget {} B, "
                                                "footprint {} B, non-evictable resident {} B{}{}",
                                                op, op >= 0 ? w_.ops[op].name : "-", bytes, *budget_,
                                                allocator_->footprint_bytes(), pinned,
                                                largest.empty() ? "" : "; largest: ", fmt::join(largest, ", "))};
        }
    }

    // A dead tensor brought back for a regeneration stays while the requesting op runs,
    // so sibling branches find it; under memory pressure it goes first (oldest first),
    // before the heuristic evicts anything still needed.
    bool drop_regenerated_dead(int op) {
        for (auto it = regenerated_dead_.begin(); it != regenerated_dead_.end(); ++it) {
            const TensorState& st = state_[*it];
            if (st.where == Where::Resident && st.released && st.locks == 0 && !st.writing && !st.reading && !st.written) {
                const TensorId t = *it;
                regenerated_dead_.erase(it);
                free_memory(t, op);
                return true;
            }
        }
        return false;
    }

    std::vector<TensorId> resident_order() const {
        std::vector<TensorId> ts;
        for (TensorId t = 0; t < static_cast<TensorId>(state_.size()); ++t)
            if (state_[t].where == Where::Resident) ts.push_back(t);
        std::sort(ts.begin(), ts.end(), [&](TensorId a, TensorId b) { return state_[a].evictable_seq < state_[b].evictable_seq; });
        return ts;
    }

    // Budget-driven swapping without a recompute heuristic: what the static selection
    // did not free in time (a write cancelled because its tensor was needed, a read that
    // came back early, pool fragmentation) is swapped out on demand.
    bool swaps_on_demand() const {
        return mode_ != "none" && (s_.policy.swap.select == "fixed_buffer" || (s_.policy.swap.select == "budget" && !heuristic_));
    }

    // Compute time until the tensor's next use, from the start of op `op`.
    double ms_until_next_use(TensorId t, int op) const {
        const auto& u = uses_[t];
        const std::size_t k = state_[t].next_use;
        if (k >= u.size()) return compute_between(std::max(op, 0), static_cast<int>(w_.ops.size()));
        return compute_between(std::max(op, 0), std::max(plan_[u[k]].op, op));
    }

    TensorId choose_victim(const std::vector<TensorId>& candidates, int op) {
        if (heuristic_) return candidates[heuristic_->choose(*this, candidates)];
        if (s_.policy.swap.select == "budget") {
            // The selection's own score: size x time until needed again (ties: lower id).
            auto score = [&](TensorId t) { return static_cast<double>(w_.tensors[t].bytes) * ms_until_next_use(t, op); };
            return *std::max_element(candidates.begin(), candidates.end(), [&](TensorId a, TensorId b) {
                const double sa = score(a), sb = score(b);
                if (sa != sb) return sa < sb;
                return a > b;
            });
        }
        // fixed_buffer (the reference's DXR rule): tensors with no further forward use
        // first, largest first; then the others, largest first.
        auto no_forward_use = [&](TensorId t) {
            const auto& u = uses_[t];
            const std::size_t k = state_[t].next_use;
            return k >= u.size() || plan_[u[k]].op >= w_.forward_end;
        };
        return *std::max_element(candidates.begin(), candidates.end(), [&](TensorId a, TensorId b) {
            const bool fa = no_forward_use(a), fb = no_forward_use(b);
            if (fa != fb) return !fa;
            if (w_.tensors[a].bytes != w_.tensors[b].bytes) return w_.tensors[a].bytes < w_.tensors[b].bytes;
            return a > b;
        });
    }

    void evict(TensorId t, int op) {
        ++result_.summary.evictions;
        const bool to_disk = s_.policy.hybrid ? swap_is_cheaper(t) : swaps_on_demand();
        if (s_.policy.hybrid) ++(to_disk ? hybrid_swaps_ : hybrid_drops_);
        if (to_disk) {
            // The write holds the memory until done; this op waits for it.
            enqueue_write(t, op);
            wait_until([&] { return !state_[t].writing; }, op, "waiting for an eviction to disk");
            return;
        }
        free_memory(t, op);
        state_[t].where = Where::Evicted;
        if (heuristic_) heuristic_->on_evicted(*this, t);
    }

    // Hybrid: swapping costs the time until the disk queue drains plus the write and the
    // later read (the GPU waits for the write, and the read is on demand); recomputing
    // costs the producer's time plus that of producers of its inputs not resident now
    // (one level: what the recomputation would have to regenerate first). Ties recompute.
    bool swap_is_cheaper(TensorId t) const {
        const double now_t = now();
        const double queue_ms = std::max(0.0, disk_free_pred_ms_ - now_t);
        const double bytes = static_cast<double>(w_.tensors[t].bytes);
        const double swap_ms = queue_ms + bytes * (write_ms_per_byte_ + read_ms_per_byte_) +
                               s_.platform.disk.write_latency_ms + s_.platform.disk.read_latency_ms;
        double recompute_ms = compute_cost_ms(t);
        const int p = w_.tensors[t].producer;
        if (p != kNoOp)
            for (TensorId in : w_.ops[p].inputs)
                if (state_[in].where != Where::Resident) recompute_ms += compute_cost_ms(in);
        return swap_ms < recompute_ms / s_.platform.gpu_speed_scale;
    }

    // ---- disk queue ----
    void enqueue_write(TensorId t, int op) {
        TensorState& st = state_[t];
        st.writing = true;
        st.written = false;
        st.keep_resident = false;
        in_flight_writes_.push_back(t);
        enqueue({true, t, w_.tensors[t].bytes, op, 0});
    }

    void enqueue_read(TensorId t, int op) {
        TensorState& st = state_[t];
        const std::uint64_t bytes = w_.tensors[t].bytes;
        allocate(t, op);  // memory is taken when the read is issued
        st.reading = true;
        enqueue({false, t, bytes, op, 0});
    }

    void enqueue(IoRequest r) {
        const double lat = r.write ? s_.platform.disk.write_latency_ms : s_.platform.disk.read_latency_ms;
        r.predicted_ms = lat + static_cast<double>(r.bytes) * (r.write ? write_ms_per_byte_ : read_ms_per_byte_);
        disk_free_pred_ms_ = (disk_idle() ? now() : std::max(disk_free_pred_ms_, now())) + r.predicted_ms;
        queue_.push_back(r);
        cv_->notify_all();
    }

    void cancel_queued_write(TensorId t) {
        auto it = std::find_if(queue_.begin(), queue_.end(), [&](const IoRequest& r) { return r.write && r.tensor == t; });
        if (it == queue_.end()) return;
        disk_free_pred_ms_ -= it->predicted_ms;
        queue_.erase(it);
        state_[t].writing = false;
        state_[t].keep_resident = false;
        in_flight_writes_.erase(std::find(in_flight_writes_.begin(), in_flight_writes_.end(), t));
        ++cancelled_writes_;
    }

    void disk_actor() {
        try {
            for (;;) {
                {
                    std::unique_lock lock(*mutex_);
                    cv_->wait(lock, [&] { return !queue_.empty() || stop_disk_; });
                }
                if (queue_.empty()) {
                    if (stop_disk_) return;
                    continue;  // the request that woke us was cancelled meanwhile
                }
                const IoRequest r = queue_.front();
                queue_.pop_front();
                disk_busy_ = true;
                const double start = now();
                const double lat = r.write ? s_.platform.disk.write_latency_ms : s_.platform.disk.read_latency_ms;
                if (lat > 0) sg::this_actor::sleep_for(lat / 1e3);
                const auto scaled = static_cast<sg_size_t>(std::llround(static_cast<double>(r.bytes) * SimPlatform::kDiskScale));
                if (scaled > 0) {
                    if (r.write) platform_.disk->write(scaled);
                    else platform_.disk->read(scaled);
                }
                ++activities_;
                disk_busy_ = false;
                result_.log.add({r.write ? lane::kDiskWrite : lane::kDiskRead, start, now(), r.op,
                                 w_.tensors[r.tensor].name, {r.tensor}, r.bytes});
                io_done(r);
                cv_->notify_all();
            }
        } catch (...) {
            internal_error_ = std::current_exception();
        }
    }

    void io_done(const IoRequest& r) {
        TensorState& st = state_[r.tensor];
        if (r.write) {
            result_.summary.bytes_written += r.bytes;
            st.writing = false;
            st.has_disk_copy = true;
            in_flight_writes_.erase(std::find(in_flight_writes_.begin(), in_flight_writes_.end(), r.tensor));
            if (st.keep_resident) return;
            if (reference_ && mode_ != "sync") {
                st.written = true;  // freed at the next sync point (reference rule)
                written_unfreed_.push_back(r.tensor);
                return;
            }
            free_to_disk(r.tensor, r.op);
        } else {
            result_.summary.bytes_read += r.bytes;
            st.reading = false;
        }
    }

    void free_to_disk(TensorId t, int op) {
        free_memory(t, op);
        TensorState& st = state_[t];
        st.where = st.released ? Where::Absent : Where::OnDisk;
        st.written = false;
    }

    // Frees every finished write in FIFO order (reference semantics' sync points).
    void free_written(int op) {
        for (TensorId t : written_unfreed_)
            if (state_[t].written) free_to_disk(t, op);
        written_unfreed_.clear();
    }

    // ---- waiting ----
    template <typename Pred>
    void wait_until(Pred ready, int op, const char* why) {
        if (ready()) return;
        const double start = now();
        {
            std::unique_lock lock(*mutex_);
            cv_->wait(lock, [&] { return ready() || internal_error_; });
        }
        if (internal_error_) std::rethrow_exception(internal_error_);
        const double end = now();
        if (end > start) {
            result_.summary.stall_ms += end - start;
            result_.log.add({lane::kStall, start, end, op, why, {}, 0});
        }
    }

    // ---- making inputs resident ----
    void swap_in_now(TensorId t, int op) {
        TensorState& st = state_[t];
        if (st.where == Where::OnDisk && !st.reading) enqueue_read(t, op);
    }


    void ensure_resident(TensorId t, int op, int depth = 0) {
        if (depth > static_cast<int>(w_.ops.size()) + 1)
            throw InvariantError(fmt::format("op {}: recomputation of tensor {} does not terminate", op, w_.tensors[t].name));
        TensorState& st = state_[t];
        if (w_.tensors[t].alias_of >= 0) {
            ensure_resident(w_.tensors[t].alias_of, op, depth + 1);
            st.where = Where::Resident;
            return;
        }
        if (st.where == Where::Resident) {
            if ((st.writing || st.written) && !st.reading) {
                // Needed before its swap-out freed it: it is still in memory, so it is used
                // in place and kept. A write not yet started is dropped from the queue; one
                // in flight completes but frees nothing.
                st.keep_resident = true;
                cancel_queued_write(t);
                if (st.written) {
                    st.written = false;
                    written_unfreed_.erase(std::find(written_unfreed_.begin(), written_unfreed_.end(), t));
                }
            }
            if (st.reading) wait_until([&] { return !state_[t].reading; }, op, "waiting for a swap-in");
            return;
        }
        if (st.where == Where::OnDisk) {
            swap_in_now(t, op);
            wait_until([&] { return !state_[t].reading; }, op, "waiting for a swap-in");
            return;
        }
        const int producer = w_.tensors[t].producer;
        if (producer == kNoOp)
            throw InvariantError(fmt::format("op {}: tensor {} is needed but absent and has no producer", op, w_.tensors[t].name));
        if (planned_ && !heuristic_)
            throw InvariantError(fmt::format("op {} ({}): the execution plan needs tensor {} which it did not keep or "
                                             "recompute", op, w_.ops[op].name, w_.tensors[t].name));
        if (st.where == Where::Absent && !st.released && !dtr_clock_ && !heuristic_)
            throw InvariantError(fmt::format("op {} ({}): input tensor {} used before it was produced or after it was freed",
                                             op, w_.ops[op].name, w_.tensors[t].name));
        recompute(producer, op, depth);
    }

    void lock(TensorId t) { ++state_[t].locks; }
    void unlock(TensorId t) {
        if (--state_[t].locks == 0) state_[t].evictable_seq = ++insert_counter_;
    }

    // Locks every input first (a resident one must not be evicted while a missing one is
    // brought back), then makes the missing ones resident in input order.
    void lock_inputs(const Op& op, int for_op, int depth) {
        if (dtr_clock_)
            for (TensorId t : op.inputs) state_[t].last_access_ms = now_ms();
        for (TensorId t : op.inputs) lock(t);
        for (TensorId t : op.inputs) swap_in_now(t, for_op);
        for (TensorId t : op.inputs) ensure_resident(t, for_op, depth);
    }

    void recompute(int producer, int for_op, int depth) {
        const Op& p = w_.ops[producer];
        lock_inputs(p, for_op, depth + 1);
        std::vector<TensorId> regenerated;
        for (TensorId out : p.outputs) {
            if (state_[out].where != Where::Resident) {
                allocate(out, for_op);
                regenerated.push_back(out);
            }
            lock(out);
        }
        // Scratch another step still holds (allocated by the op, freed by a later one) is
        // not allocated twice; what this recomputation allocates it frees.
        std::vector<TensorId> scratch;
        for (const ScratchEvent& e : p.scratch)
            if (e.alloc && state_[e.tensor].where != Where::Resident) scratch.push_back(e.tensor);
        run_exec(producer, lane::kRecompute, false, &scratch);
        for (TensorId t : scratch)
            if (state_[t].where == Where::Resident) free_memory(t, for_op);
        for (TensorId out : regenerated) {
            ++state_[out].recomputes;
            if (heuristic_) heuristic_->on_rematerialized(*this, out);
        }
        for (TensorId out : p.outputs) unlock(out);
        for (TensorId in : p.inputs) {
            unlock(in);
            // Brought back only to regenerate another tensor: kept (evictable) until the
            // requesting op has run, so sibling branches do not regenerate it again.
            if (state_[in].released && !planned_ && !dtr_clock_ && !kept_as_source(in)) regenerated_dead_.push_back(in);
        }
        ++result_.summary.recomputed_ops;
        const double cost = p.cost_ms / s_.platform.gpu_speed_scale;
        result_.summary.recompute_ms += cost;
        if (s_.policy.recompute.max_overhead &&
            result_.summary.recompute_ms > *s_.policy.recompute.max_overhead * compute_ms_scaled())
            throw RunStopped{"thrash", fmt::format("recomputation time {:.3f} ms exceeded {} x the compute time {:.3f} ms at op {}",
                                                   result_.summary.recompute_ms, *s_.policy.recompute.max_overhead,
                                                   compute_ms_scaled(), for_op)};
        // Without a limit a thrashing heuristic (random on MobilenetV2 at 60%) recomputes
        // for ever and the event log eats the host's memory: stop runaways anyway.
        if (!s_.policy.recompute.max_overhead && result_.summary.recompute_ms > kRunawayOverhead * compute_ms_scaled())
            throw RunStopped{"thrash", fmt::format("recomputation time {:.3f} ms exceeded {} x the compute time {:.3f} ms at op {} "
                                                   "(the built-in runaway limit; set policy.recompute.max_overhead)",
                                                   result_.summary.recompute_ms, kRunawayOverhead, compute_ms_scaled(), for_op)};
    }

    // A tensor brought back only for a recomputation after its last use goes again.
    // Under a recomputation budget a constant or input (no producer) is never freed before
    // the end, as in the published DTR runtime: an evicted tensor computed from it may need
    // it again to be recomputed, and nothing could bring it back.
    bool kept_as_source(TensorId t) const { return heuristic_ && budget_ && w_.tensors[t].producer == kNoOp; }

    void free_if_dead(TensorId t, int op) {
        if (dtr_clock_ || planned_ || kept_as_source(t)) return;  // a plan frees what it recomputed with its own Release steps
        TensorState& st = state_[t];
        if (st.released && st.where == Where::Resident && st.locks == 0 && !st.writing && !st.reading) free_memory(t, op);
    }

    double compute_ms_scaled() const { return w_.compute_ms() / s_.platform.gpu_speed_scale; }

    void run_exec(int op, const char* lane_name, bool top_level, const std::vector<TensorId>* scratch = nullptr) {
        const Op& o = w_.ops[op];
        if (scratch) {
            for (TensorId t : *scratch) allocate(t, op);
        } else {
            for (const ScratchEvent& e : o.scratch)
                if (e.alloc) allocate(e.tensor, op);
        }
        const double start = now();
        sg::ExecPtr exec = sg::this_actor::exec_init(o.cost_ms / s_.platform.gpu_speed_scale);
        exec->set_name(o.name);
        exec->start();
        exec->wait();
        ++activities_;
        op_clock_ms_ += o.cost_ms;
        result_.log.add({lane_name, start, now(), op, o.name, o.outputs, 0});
        for (const ScratchEvent& e : o.scratch)
            if (!e.alloc && state_[e.tensor].where == Where::Resident) free_memory(e.tensor, op);
        // dtr semantics: inputs were stamped when locked; a recomputed tensor keeps the
        // stamp its requester gave it.
        if (!dtr_clock_)
            for (TensorId t : o.inputs) state_[t].last_access_ms = now_ms();
        if (!dtr_clock_ || top_level)
            for (TensorId t : o.outputs) state_[t].last_access_ms = now_ms();
    }

    // ---- the GPU stream ----
    void gpu_actor() {
        try {
            for (TensorId t : w_.initial_tensors()) allocate(t, -1);
            for (std::size_t k = 0; k < plan_.size(); ++k) run_step(plan_[k]);
            finish_iteration();
            finished_ = true;
        } catch (const RunStopped& stop) {
            result_.summary.status = stop.status;
            result_.summary.message = stop.message;
        } catch (...) {
            internal_error_ = std::current_exception();
        }
        result_.summary.time_ms = now();
        stop_disk_ = true;
        queue_.clear();  // a stopped run (oom, thrash, error) drops what is still queued
        cv_->notify_all();
    }

    void run_step(const PlanStep& step) {
        if (step.kind == StepKind::Release) {
            release(step.tensor, -1, /*plan_step=*/true);
            return;
        }
        const int i = step.op;
        const Op& op = w_.ops[i];
        if (step.kind == StepKind::Recompute) {
            recompute(i, i, 0);
            return;
        }
        for (TensorId t : op.arrivals) allocate(t, i);  // constants declared just before this op
        before_op(i);
        // Inputs of the running operator are locked (not evictable) while it needs them.
        lock_inputs(op, i, 0);
        for (TensorId t : op.inputs) ++state_[t].next_use;
        for (TensorId t : op.outputs) {
            allocate(t, i);
            lock(t);
        }
        run_exec(i, lane::kCompute, true);
        for (TensorId t : op.outputs) unlock(t);
        for (TensorId t : op.inputs) unlock(t);
        for (TensorId t : op.release) release(t, i);
        for (TensorId t : op.inputs) free_if_dead(t, i);
        for (TensorId t : regenerated_dead_) free_if_dead(t, i);
        regenerated_dead_.clear();
        if (i == w_.forward_end - 1) result_.log.forward_end_ms = now();
        after_op(i);
    }

    void release(TensorId t, int op, bool plan_step = false) {
        TensorState& st = state_[t];
        // A plan keeps a source (no producer) past its op's release for recomputations and
        // frees it with a Release step of its own.
        if (planned_ && !plan_step && w_.tensors[t].producer == kNoOp) return;
        if (planned_) {
            // A planner's Release (early, or of a copy recomputed after its last use) and an
            // op's release list both free whatever copy is resident, as plan_replay counts.
            st.released = true;
            if (st.where == Where::Resident && !st.writing && !st.written && st.locks == 0)
                free_memory(t, op);
            else if (st.where == Where::OnDisk || st.where == Where::Evicted) st.where = Where::Absent;
            return;
        }
        if (st.released) return;  // already gone
        st.released = true;
        if (kept_as_source(t)) return;  // stays resident until the end of the iteration
        if (dtr_clock_ && st.where == Where::Resident && st.locks == 0) {
            // The published DTR runtime: freed at once but still recomputable.
            free_memory(t, op);
            st.where = Where::Evicted;
            if (heuristic_) heuristic_->on_evicted(*this, t);
            return;
        }
        if (dtr_clock_ && st.where == Where::Evicted) return;
        if (st.where == Where::Resident && !st.writing && !st.written) free_memory(t, op);
        else if (st.where == Where::OnDisk || st.where == Where::Evicted) st.where = Where::Absent;
        // A tensor still being written is freed when its write ends.
    }

    // Swap-ins this op needs, issued according to the mode; prefetch for later ops.
    void before_op(int i) {
        if (mode_ == "none" || i < w_.forward_end) return;
        if (i == w_.forward_end) at_forward_end();
        if (mode_ == "sync") {
            issue_group(i, i);
        } else if (mode_ == "semi_sync") {
            if (i == w_.forward_end) {
                issue_group(i, i);
                wait_group(i);
            }
            if (i + 1 < static_cast<int>(w_.ops.size())) issue_group(i + 1, i);  // read for op i+1 alongside op i
        } else {
            // This op's own inputs first: prefetches for later ops must not queue ahead of them.
            make_inputs_resident(i);
            prefetch_at(i);
        }
        wait_group(i);
    }

    void after_op(int i) {
        if (mode_ == "none" || i >= w_.forward_end) return;
        if (mode_ == "sync") {
            for (TensorId t : swap_.out_after[i]) enqueue_write(t, i);
            wait_until([&] { return std::none_of(swap_.out_after[i].begin(), swap_.out_after[i].end(),
                                                 [&](TensorId t) { return state_[t].writing; }); },
                       i, "waiting for swap-outs (sync)");
        } else if (mode_ == "semi_sync") {
            // The writes issued after op i-1 ran alongside op i; both must be done now.
            if (i > 0) {
                wait_until([&] { return std::none_of(swap_.out_after[i - 1].begin(), swap_.out_after[i - 1].end(),
                                                     [&](TensorId t) { return state_[t].writing; }); },
                           i, "waiting for swap-outs (semi_sync)");
                if (reference_) free_written(i);
            }
            for (TensorId t : swap_.out_after[i]) enqueue_write(t, i);
        } else {
            if (reference_) free_written(i);  // the reference frees finished writes only at op ends
            for (TensorId t : swap_.out_after[i]) enqueue_write(t, i);
        }
    }

    void at_forward_end() {
        const int f = w_.forward_end;
        if (mode_ == "semi_sync") {
            wait_until([&] { return std::none_of(swap_.out_after[f - 1].begin(), swap_.out_after[f - 1].end(),
                                                 [&](TensorId t) { return state_[t].writing; }); },
                       f, "waiting for the last swap-outs (semi_sync)");
            if (reference_) free_written(f);
        }
        if (mode_ == "async" && reference_) {
            // Reference quirk: memory of every pending write is freed at the end of the
            // forward pass, without waiting; the writes still occupy the disk queue.
            for (TensorId t : in_flight_writes_) state_[t].written = true, written_unfreed_.push_back(t);
            for (TensorId t : written_unfreed_)
                if (state_[t].where == Where::Resident && !state_[t].keep_resident) {
                    state_[t].keep_resident = true;  // the write's completion must not free it again
                    free_memory(t, f);
                    state_[t].where = Where::OnDisk;
                    state_[t].has_disk_copy = true;
                    state_[t].written = false;
                }
            written_unfreed_.clear();
            issue_group(f, f);  // the first read, queued behind every pending write
            next_group_ = f + 1;
        }
    }

    // Issues every needed read at once (FIFO order = input order), then waits for each.
    void make_inputs_resident(int i) {
        for (TensorId t : w_.ops[i].inputs) swap_in_now(t, i);
        for (TensorId t : w_.ops[i].inputs) ensure_resident(t, i);
    }

    void issue_group(int consumer, int at_op) {
        // Only tensors already on disk; one whose write is still pending is handled on
        // demand (used in place if still resident, read if gone by then).
        for (TensorId t : swap_.in_for[consumer]) swap_in_now(t, at_op);
    }

    void wait_group(int consumer) {
        for (TensorId t : swap_.in_for[consumer])
            if (state_[t].reading) wait_until([&] { return !state_[t].reading; }, consumer, "waiting for a swap-in");
    }

    double group_read_ms(int consumer) const {
        double ms = 0;
        for (TensorId t : swap_.in_for[consumer])
            if (state_[t].where == Where::OnDisk)
                ms += s_.platform.disk.read_latency_ms + static_cast<double>(w_.tensors[t].bytes) * read_ms_per_byte_;
        return ms;
    }

    bool group_fits(int consumer) const {
        if (!budget_) return true;
        std::uint64_t bytes = 0;
        for (TensorId t : swap_.in_for[consumer])
            if (state_[t].where == Where::OnDisk) bytes += w_.tensors[t].bytes;
        return allocator_->footprint_if_allocated(bytes) <= *budget_;
    }

    // Predicted compute time from the start of op `from` to the start of op `to`.
    double compute_between(int from, int to) const {
        double ms = 0;
        for (int k = from; k < to; ++k) ms += w_.ops[k].cost_ms / s_.platform.gpu_speed_scale;
        return ms;
    }

    // async: at the start of backward op i, issue the reads the prefetch policy wants now.
    void prefetch_at(int i) {
        const int n = static_cast<int>(w_.ops.size());
        if (next_group_ < i) next_group_ = i;
        if (reference_) {
            // Reference rule: when the disk is idle at an op start, issue the next group
            // with reads; then more groups only if they finish before this op ends.
            const double t = now();
            // "Idle" from the disk's own state: comparing predicted and simulated clocks
            // would break exact ties the reference relies on.
            double d = disk_idle() ? t : std::max(disk_free_pred_ms_, t);
            while (d <= t && next_group_ < n) {
                d += group_read_ms(next_group_);
                issue_group(next_group_, i);
                ++next_group_;
            }
            const double op_end = t + w_.ops[i].cost_ms / s_.platform.gpu_speed_scale;
            while (next_group_ < n && d + group_read_ms(next_group_) <= op_end) {
                d += group_read_ms(next_group_);
                issue_group(next_group_, i);
                ++next_group_;
            }
            return;
        }
        const PrefetchSpec& pf = s_.policy.swap.prefetch;
        while (next_group_ < n) {
            const int j = next_group_;
            bool issue = false;
            switch (pf.kind) {
                case PrefetchKind::Eager: issue = true; break;
                case PrefetchKind::LeadOps: issue = j - pf.lead_ops <= i; break;
                case PrefetchKind::LeadMs: issue = compute_between(i, j) <= pf.lead_ms; break;
                case PrefetchKind::JustInTime: {
                    // Issue now if waiting for the next op start would make it late, given
                    // the disk queue ahead of it.
                    if (j == i) { issue = true; break; }
                    const double next_start = now() + w_.ops[i].cost_ms / s_.platform.gpu_speed_scale;
                    const double needed_at = now() + compute_between(i, j);
                    const double done_if_later = std::max(disk_free_pred_ms_, next_start) + group_read_ms(j);
                    issue = done_if_later > needed_at;
                    break;
                }
            }
            if (!issue) break;
            if (!group_fits(j) && j != i) break;  // no room yet: retry at the next op start
            issue_group(j, i);
            ++next_group_;
        }
    }

    void finish_iteration() {
        // Outstanding I/O belongs to the iteration.
        wait_until([&] { return queue_.empty() && !disk_busy_; }, static_cast<int>(w_.ops.size()) - 1,
                   "waiting for the disk queue to drain");
        if (reference_) free_written(-1);
        // Everything still allocated (final outputs, parameters) is freed at the end.
        for (TensorId t = 0; t < static_cast<TensorId>(state_.size()); ++t)
            if (state_[t].where == Where::Resident && w_.tensors[t].alias_of < 0) free_memory(t, -1);
        if (live_bytes_ != 0)
            throw InvariantError(fmt::format("{} bytes still allocated at the end of the iteration", live_bytes_));
    }

    void fill_summary() {
        Summary& sm = result_.summary;
        sm.scenario = s_.name;
        sm.workload = w_.name.empty() ? w_.source : fmt::format("{} (batch {})", w_.name, w_.batch);
        sm.allocator = allocator_->name();
        sm.semantics = s_.policy.semantics;
        sm.swap_mode = mode_;
        sm.peak_bytes = allocator_->peak_bytes();
        sm.live_peak_bytes = live_peak_;
        sm.compute_ms = w_.compute_ms();
        sm.ops = w_.ops.size();
        sm.activities = activities_;
        sm.forward_end = w_.forward_end;
        sm.swapped_tensors = swap_.selected.size();
        if (s_.policy.hybrid) {
            sm.details["hybrid_swapped"] = static_cast<double>(hybrid_swaps_);
            sm.details["hybrid_dropped"] = static_cast<double>(hybrid_drops_);
        }
        if (mode_ != "none") {
            sm.details["swap_selected_bytes"] = static_cast<double>(swap_.selected_bytes);
            sm.details["cancelled_writes"] = static_cast<double>(cancelled_writes_);
        }
        if (result_.log.forward_end_ms >= 0) {
            sm.details["forward_ms"] = result_.log.forward_end_ms;
            sm.details["backward_ms"] = sm.time_ms - result_.log.forward_end_ms;
        }
        result_.log.budget_bytes = budget_;
        if (budget_) sm.details["budget_bytes"] = static_cast<double>(*budget_);
        if (s_.platform.memory_budget_ratio) sm.details["budget_ratio"] = *s_.platform.memory_budget_ratio;
    }

    const Workload& w_;
    const Scenario& s_;
    const ExecPlan& plan_;
    std::unique_ptr<Allocator> allocator_;
    std::optional<std::uint64_t> budget_;
    bool reference_ = false;
    bool dtr_clock_ = false;
    bool planned_ = false;
    std::string mode_;
    SwapPlan swap_;
    std::unique_ptr<EvictionHeuristic> heuristic_;
    std::vector<TensorState> state_;
    std::vector<std::vector<std::size_t>> uses_;
    std::uint64_t live_bytes_ = 0, live_peak_ = 0, insert_counter_ = 0, activities_ = 0, cancelled_writes_ = 0;
    double op_clock_ms_ = 0;
    std::uint64_t hybrid_swaps_ = 0, hybrid_drops_ = 0;
    std::vector<TensorId> regenerated_dead_;  // dead tensors a regeneration brought back
    double read_ms_per_byte_ = 0, write_ms_per_byte_ = 0;
    double disk_free_pred_ms_ = 0;
    std::deque<IoRequest> queue_;
    bool disk_busy_ = false;
    std::vector<TensorId> in_flight_writes_, written_unfreed_;
    int next_group_ = 0;
    SimPlatform platform_;
    sg::MutexPtr mutex_;
    sg::ConditionVariablePtr cv_;
    double start_s_ = 0;
    bool finished_ = false;
    bool stop_disk_ = false;
    std::exception_ptr internal_error_;
    RunResult result_;
};

}  // namespace

void resolve_budget(Scenario& scenario, const Workload& w) {
    if (scenario.platform.memory_budget || !scenario.platform.memory_budget_ratio) return;
    scenario.platform.memory_budget = budget_from_ratio(w, scenario);
}

RunResult simulate(const Workload& w, const Scenario& scenario) { return simulate(w, scenario, straight_plan(w)); }

RunResult simulate(const Workload& w, const Scenario& scenario, const ExecPlan& plan) {
    Simulation sim(w, scenario, plan);
    return sim.run();
}

}  // namespace memsim
