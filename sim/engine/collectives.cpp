#include "sim/engine/collectives.h"

#include <cmath>
#include <mutex>

#include <fmt/format.h>

namespace memsim {

namespace sg = simgrid::s4u;

Collectives::Collectives(const SimPlatform& platform, NodeUsage& usage, int ranks, const CollectiveAlgorithm& algorithm,
                         std::vector<CollectiveRequest> requests)
    : platform_(platform),
      usage_(usage),
      ranks_(ranks),
      algorithm_(algorithm),
      requests_(std::move(requests)),
      arrived_(requests_.size(), 0),
      clocks_(static_cast<std::size_t>(ranks), nullptr),
      logs_(static_cast<std::size_t>(ranks), nullptr),
      counts_(static_cast<std::size_t>(ranks)),
      lane_names_(static_cast<std::size_t>(ranks)),
      mutex_(sg::Mutex::create()),
      cv_(sg::ConditionVariable::create()) {}

void Collectives::attach(int rank, Clock& clock, EventLog& log) {
    clocks_[static_cast<std::size_t>(rank)] = &clock;
    logs_[static_cast<std::size_t>(rank)] = &log;
    for (int l = 0; l < usage_.lane_count(); ++l)
        lane_names_[static_cast<std::size_t>(rank)].push_back(log.labels.keep(usage_.lane(l)));
}

void Collectives::start() {
    start_s_ = sg::Engine::get_clock();
    // Not a daemon (it would outlive run() and wake in the next simulation of the
    // process): it returns once every collective ran or every rank ended.
    sg::Actor::create("collectives", platform_.gpu_host(0), [this] { serve(); });
}

void Collectives::submit(int rank, int seq) {
    (void)rank;
    ++arrived_[static_cast<std::size_t>(seq)];
    cv_->notify_all();
}

void Collectives::rank_ended(int rank, const std::optional<RunStopped>& stopped) {
    ++ended_;
    if (stopped && !failure_)
        failure_ = RunStopped{stopped->status,
                              fmt::format("GPU {} stopped ({}): the step's collectives cannot complete", rank, stopped->message)};
    cv_->notify_all();
    notify_ranks();
}

void Collectives::notify_ranks() {
    for (Clock* c : clocks_)
        if (c) c->notify();
}

void Collectives::serve() {
    try {
        while (done_count_ < static_cast<int>(requests_.size())) {
            {
                std::unique_lock lock(*mutex_);
                cv_->wait(lock, [&] {
                    return arrived_[static_cast<std::size_t>(done_count_)] == ranks_ || failure_ || ended_ == ranks_;
                });
            }
            if (arrived_[static_cast<std::size_t>(done_count_)] < ranks_) return;  // a rank stopped: nothing more runs
            run(requests_[static_cast<std::size_t>(done_count_)]);
            ++done_count_;
            notify_ranks();
        }
    } catch (...) {
        for (Clock* c : clocks_)
            if (c) c->fail(std::current_exception());
        notify_ranks();
    }
}

// Each step's flows start together and the step ends when the last one has; every flow
// occupies the links of its route from the step's start to its own end.
void Collectives::run(const CollectiveRequest& r) {
    const double start_ms = (sg::Engine::get_clock() - start_s_) * 1e3;
    const std::vector<CollectiveStep> steps = algorithm_.steps(r.kind, ranks_, static_cast<double>(r.bytes));
    const auto now_ms = [&] { return (sg::Engine::get_clock() - start_s_) * 1e3; };
    for (const CollectiveStep& step : steps) {
        const double step_start = now_ms();
        std::vector<sg::CommPtr> flows;
        std::vector<std::uint64_t> bytes;
        for (const CollectiveFlow& f : step) {
            bytes.push_back(static_cast<std::uint64_t>(std::llround(f.bytes)));
            const auto scaled = static_cast<std::uint64_t>(std::llround(f.bytes * SimPlatform::kDiskScale));
            flows.push_back(sg::Comm::sendto_async(platform_.gpu_host(f.from), platform_.gpu_host(f.to), scaled));
        }
        for (const sg::CommPtr& c : flows) c->wait();
        for (std::size_t i = 0; i < step.size(); ++i) {
            const CollectiveFlow& f = step[i];
            const double end = (flows[i]->get_finish_time() - start_s_) * 1e3;
            for (const int lane : usage_.peer_route(f.from, f.to)) {
                usage_.peer_occupied(lane, step_start, end, bytes[i]);
                EventLog& log = *logs_[static_cast<std::size_t>(f.from)];
                if (!log.recording) continue;
                Activity a{lane_names_[static_cast<std::size_t>(f.from)][static_cast<std::size_t>(lane)],
                           step_start,
                           end,
                           r.op,
                           r.label,
                           {},
                           bytes[i]};
                a.key = usage_.key(lane, kNoTier);
                log.add(std::move(a));
            }
        }
    }
    const double end_ms = now_ms();
    for (int rank = 0; rank < ranks_; ++rank) {
        RankCounts& c = counts_[static_cast<std::size_t>(rank)];
        double sent = 0;
        for (const CollectiveStep& step : steps)
            for (const CollectiveFlow& f : step)
                if (f.from == rank) sent += static_cast<double>(std::llround(f.bytes));
        c.bytes_sent += static_cast<std::uint64_t>(sent);
        c.collective_ms += end_ms - start_ms;
        EventLog& log = *logs_[static_cast<std::size_t>(rank)];
        if (log.recording) log.add({lane::kCollective, start_ms, end_ms, r.op, r.label, {}, static_cast<std::uint64_t>(sent)});
    }
}

}  // namespace memsim
