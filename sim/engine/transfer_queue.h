// A GPU's copy queue: one FIFO of swap-outs and swap-ins to and from every tier, served
// one at a time by its actor (as a GPU's copy engine does): SimGrid disk I/Os without a
// node; on the node of docs/tiers.md each request a flow on the GPU's PCIe link to host
// RAM, or through it to a disk. Each request carries its tier, and the queue predicts it
// with that tier's transfer model, so it knows when it will be free (the prefetch rules
// and the hybrid rule read it). A queued write can be cancelled in
// O(1): it is marked and skipped when it reaches the head, and its predicted time is
// taken off at once.
#pragma once

#include <cstdint>
#include <deque>
#include <string_view>
#include <vector>

#include "models/platform/transfer_model.h"
#include "models/platform/tier.h"
#include "models/workload/workload.h"
#include "sim/engine/clock.h"
#include "sim/engine/engine_context.h"
#include "sim/engine/node_usage.h"
#include "sim/engine/zeroed_array.h"

namespace memsim {

// A transfer to or from `tier` as the queue predicts it for GPU `gpu`: without a node
// its device (the disk); on the node the GPU's route to the host, and the tier's device
// behind it (staged when the tier is staged by the path and `bounce`).
TransferModel tier_model(const TierSpec& tier, int gpu, bool bounce);

struct IoRequest {
    bool write = true;
    TensorId tensor = -1;
    std::uint64_t bytes = 0;
    int op = -1;
    double predicted_ms = 0;
    bool cancelled = false;
    TierId tier = kDefaultTier;  // to or from
};

// Told when a request has been served (the tensor-level side of swapping).
class IoListener {
public:
    virtual ~IoListener() = default;
    virtual void on_io_done(const IoRequest& r) = 0;
};

class TransferQueue {
public:
    // Each served request is told to the swap side.
    explicit TransferQueue(const EngineContext& ctx);

    void enqueue(bool write, TensorId t, int op, TierId tier);
    // Drops the tensor's write if it is still queued (not yet started); false otherwise.
    bool cancel_write(TensorId t);
    void serve();  // the queue actor's body
    void stop();   // a stopped or finished run: drop what is queued, let the actor end

    [[nodiscard]] bool idle() const { return live_ == 0 && !busy_; }
    [[nodiscard]] std::uint64_t served() const { return served_; }  // I/Os done (SimGrid activities)
    // The queue's own predictions, from what is queued and in flight now (every request
    // costs what its tier's transfer model says, as served).
    [[nodiscard]] double free_at_ms() const { return free_pred_ms_; }  // predicted end of the queue
    [[nodiscard]] double backlog_ms() const;                           // from now until it drains
    // One read from `tier`, served alone.
    [[nodiscard]] double read_ms(std::uint64_t bytes, TierId tier) const { return models_[tier].read_ms(bytes); }
    // A swap-out enqueued now, waited for, and its read later on demand: the backlog,
    // the write and the read to and from its tier (what an eviction costs the GPU stream).
    [[nodiscard]] double round_trip_ms(std::uint64_t bytes, TierId tier) const;

private:
    IoRequest pop();
    void transfer(const IoRequest& r);       // the SimGrid activities of one request
    void node_transfer(const IoRequest& r);  // on the node: flows on links, disk I/Os on the host
    // The request occupied a resource of the node (the links of its route when
    // `resource` is -1) from start_ms to end_ms: counted, and logged after the request.
    void occupied(const IoRequest& r, int resource, double start_ms, double end_ms);

    const Workload& w_;
    std::vector<TransferModel> models_;  // per tier: a request's prediction (tier_model)
    const SimPlatform& platform_;
    int gpu_ = 0;
    bool bounce_ = true;
    std::vector<TierSpec> tiers_;  // the platform's tiers (their devices' latencies)
    Clock& clock_;
    EventLog& log_;
    simgrid::s4u::Disk* disk_;
    IoListener& listener_;
    NodeUsage& usage_;
    std::vector<std::string_view> resource_lanes_;  // per node resource lane: its name kept by the log
    std::vector<Activity> occupied_;  // the request's resource activities, logged after it
    std::uint64_t served_ = 0;
    double free_pred_ms_ = 0;
    std::deque<IoRequest> queue_;   // cancelled requests stay until they reach the head
    std::uint64_t front_seq_ = 0;   // sequence number of queue_.front()
    ZeroedArray<std::uint64_t> queued_write_;  // per tensor: 1 + seq of its queued write, 0: none
    std::size_t live_ = 0;          // requests queued and not cancelled
    bool busy_ = false;
    bool stopped_ = false;
};

}  // namespace memsim
