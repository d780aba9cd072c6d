#include "sim/engine/transfer_queue.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/swap_io.h"

namespace memsim {

namespace sg = simgrid::s4u;

TransferModel tier_model(const TierSpec& spec, int gpu, bool bounce) {
    if (spec.routes.empty())
        return TransferModel(spec.devices.empty() ? DiskSpec{} : spec.device_of(gpu));  // no node: the device alone
    const DiskSpec& route = spec.routes[static_cast<std::size_t>(gpu)];
    if (spec.devices.empty()) return TransferModel(route);
    return TransferModel(disk_behind_route(route, spec.device_of(gpu), spec.staged_by_path && bounce));
}

TransferQueue::TransferQueue(const EngineContext& ctx)
    : w_(ctx.workload),
      platform_(ctx.platform),
      gpu_(ctx.gpu),
      bounce_(ctx.config.swap_path.bounce),
      tiers_(ctx.config.platform.tiers()),
      clock_(ctx.clock),
      log_(ctx.log),
      disk_(ctx.platform.disk),
      listener_(ctx.io),
      usage_(ctx.usage),
      queued_write_(ctx.workload.tensors.size()) {
    for (int l = 0; l < usage_.lane_count(); ++l) resource_lanes_.push_back(log_.labels.keep(usage_.lane(l)));
    for (const TierSpec& tier : tiers_) models_.push_back(tier_model(tier, ctx.gpu, ctx.config.swap_path.bounce));
}

void TransferQueue::enqueue(bool write, TensorId t, int op, TierId tier) {
    IoRequest r{write, t, w_.tensors[t].bytes, op, 0, false, tier};
    r.predicted_ms = models_[tier].ms(r.write, r.bytes);
    free_pred_ms_ = (idle() ? clock_.now() : std::max(free_pred_ms_, clock_.now())) + r.predicted_ms;
    if (write && queued_write_[t] == 0) queued_write_[t] = front_seq_ + queue_.size() + 1;
    queue_.push_back(r);
    ++live_;
    clock_.notify();
}

bool TransferQueue::cancel_write(TensorId t) {
    if (queued_write_[t] == 0) return false;
    IoRequest& r = queue_[queued_write_[t] - 1 - front_seq_];
    queued_write_[t] = 0;
    free_pred_ms_ -= r.predicted_ms;
    r.cancelled = true;
    --live_;
    return true;
}

IoRequest TransferQueue::pop() {
    for (;;) {
        IoRequest r = queue_.front();
        queue_.pop_front();
        ++front_seq_;
        if (r.cancelled) continue;
        if (r.write && queued_write_[r.tensor] == front_seq_) queued_write_[r.tensor] = 0;
        --live_;
        return r;
    }
}

void TransferQueue::serve() {
    try {
        for (;;) {
            clock_.block_until([&] { return live_ > 0 || stopped_; });
            if (live_ == 0) {
                if (stopped_) return;
                continue;  // the request that woke us was cancelled meanwhile
            }
            const IoRequest r = pop();
            busy_ = true;
            const double start = clock_.now();
            transfer(r);
            ++served_;
            busy_ = false;
            if (log_.recording)
                log_.add(swap_activity(r.tier, r.write, start, clock_.now(), r.op, w_.tensors[r.tensor].name, {r.tensor}, r.bytes));
            for (Activity& a : occupied_) log_.add(std::move(a));
            occupied_.clear();
            listener_.on_io_done(r);
            clock_.notify();
        }
    } catch (...) {
        clock_.fail(std::current_exception());
    }
}

void TransferQueue::transfer(const IoRequest& r) {
    if (platform_.is_node()) {
        node_transfer(r);
        return;
    }
    const double lat = models_[r.tier].latency_ms(r.write);
    if (lat > 0) sg::this_actor::sleep_for(lat / 1e3);
    const auto scaled = static_cast<sg_size_t>(std::llround(static_cast<double>(r.bytes) * SimPlatform::kDiskScale));
    if (scaled > 0) {
        if (r.write) disk_->write(scaled);
        else disk_->read(scaled);
    }
}

// A request to a tier the route alone reaches (host RAM) is one flow on the GPU's route
// to the host (its PCIe link, its switch's uplink; the link latency is SimGrid's). A
// request to a tier on devices (a disk) crosses the same route and the GPU's device:
// staged (a tier staged by the path on the bounce path: the flow then the I/O for a
// write, the I/O then the flow for a read) or streamed (both at once, done when both
// are). Each flow occupies every link of the route for its whole duration, each I/O its
// device (not the device's latency before it): those intervals are the node's resource usage.
void TransferQueue::node_transfer(const IoRequest& r) {
    const auto scaled = static_cast<std::uint64_t>(std::llround(static_cast<double>(r.bytes) * SimPlatform::kDiskScale));
    if (scaled == 0) return;
    sg::Host* gpu = platform_.gpu_host(gpu_);
    sg::Host* from = r.write ? gpu : platform_.host;
    sg::Host* to = r.write ? platform_.host : gpu;
    const auto flow = [&] {
        const double start = clock_.now();
        sg::Comm::sendto(from, to, scaled);
        occupied(r, -1, start, clock_.now());
    };
    const TierSpec& tier = tiers_[r.tier];
    if (tier.devices.empty()) {
        flow();
        return;
    }
    sg::Disk* disk = platform_.device(r.tier, gpu_);
    const DiskSpec& disk_spec = tier.device_of(gpu_);
    const int disk_lane = usage_.device_lane(gpu_, r.tier, r.write);
    const double lat = r.write ? disk_spec.write_latency_ms : disk_spec.read_latency_ms;
    const bool staged = bounce_ && tier.staged_by_path;
    const auto io = [&] {
        return r.write ? disk->write_async(scaled) : disk->read_async(scaled);
    };
    if (staged && r.write) flow();
    if (lat > 0) sg::this_actor::sleep_for(lat / 1e3);
    if (staged) {
        const double start = clock_.now();
        io()->wait();
        occupied(r, disk_lane, start, clock_.now());
        if (!r.write) flow();
        return;
    }
    const double start = clock_.now();
    sg::CommPtr link_flow = sg::Comm::sendto_async(from, to, scaled);
    sg::IoPtr disk_io = io();
    link_flow->wait();
    disk_io->wait();
    // Whichever ended first ended before now: its own finish time says when.
    const auto ms_at = [&](double simgrid_s) { return clock_.now() - (sg::Engine::get_clock() - simgrid_s) * 1e3; };
    occupied(r, -1, start, ms_at(link_flow->get_finish_time()));
    occupied(r, disk_lane, start, ms_at(disk_io->get_finish_time()));
}

void TransferQueue::occupied(const IoRequest& r, int resource, double start_ms, double end_ms) {
    const auto one = [&](int lane) {
        usage_.occupied(lane, start_ms, end_ms, r.bytes);
        if (log_.recording) {
            occupied_.push_back({resource_lanes_[static_cast<std::size_t>(lane)], start_ms, end_ms, r.op,
                                 w_.tensors[r.tensor].name, {r.tensor}, r.bytes});
            occupied_.back().key = usage_.key(lane, r.tier);
        }
    };
    if (resource >= 0) {
        one(resource);
        return;
    }
    for (const int lane : usage_.route(gpu_, r.write)) one(lane);
}

void TransferQueue::stop() {
    stopped_ = true;
    for (const IoRequest& r : queue_)  // every queued write's entry (the only ones not 0)
        if (r.write) queued_write_[r.tensor] = 0;
    front_seq_ += queue_.size();
    queue_.clear();
    live_ = 0;
    clock_.notify();
}

double TransferQueue::backlog_ms() const { return std::max(0.0, free_pred_ms_ - clock_.now()); }

double TransferQueue::round_trip_ms(std::uint64_t bytes, TierId tier) const {
    const TransferModel& m = models_[tier];
    const double now = clock_.now();
    const double start = std::max(now, now + backlog_ms());
    return start + m.write_ms(bytes) - now + m.read_ms(bytes);
}

}  // namespace memsim
