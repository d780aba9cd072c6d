// The node's collectives (docs/parallel.md): one actor runs the data-parallel step's
// collectives in order (NCCL's one communication stream), each once every rank has
// submitted it, as the algorithm's steps of SimGrid flows on the GPU-to-GPU routes; the
// ranks' GPU streams wait on them (RankCollectives). Shared by the ranks' engine parts
// of one simulation, like the host tier.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/parallel/collective_algorithms.h"
#include "sim/engine/clock.h"
#include "sim/engine/event_log.h"
#include "sim/engine/node_usage.h"
#include "sim/engine/platform.h"

namespace memsim {

struct CollectiveRequest {
    CollectiveKind kind = CollectiveKind::all_reduce;
    std::uint64_t bytes = 0;  // the whole buffer (S)
    std::string label;        // "all_reduce bucket 2"
    int op = -1;              // the op after which the ranks submit it
};

class Collectives {
public:
    // `requests`: the step's collectives in the order every rank submits them.
    Collectives(const SimPlatform& platform, NodeUsage& usage, int ranks, const CollectiveAlgorithm& algorithm,
                std::vector<CollectiveRequest> requests);

    // Each rank's clock (woken when a collective ends) and log (its flows and its lane).
    void attach(int rank, Clock& clock, EventLog& log);
    void start();  // creates the actor; after attach, before the simulation runs

    [[nodiscard]] const std::vector<CollectiveRequest>& requests() const { return requests_; }
    void submit(int rank, int seq);
    [[nodiscard]] bool done(int seq) const { return seq < done_count_; }
    // A rank that stopped (oom, an error) ends the step: collectives it has not joined never
    // run; the ranks waiting on one are told by `failure`.
    void rank_ended(int rank, const std::optional<RunStopped>& stopped);
    [[nodiscard]] const std::optional<RunStopped>& failure() const { return failure_; }

    // What each rank's part of the collectives was: bytes it sent, time collectives it
    // took part in ran (each from its start to its end).
    struct RankCounts {
        std::uint64_t bytes_sent = 0;
        double collective_ms = 0;
    };
    [[nodiscard]] const RankCounts& counts(int rank) const { return counts_[static_cast<std::size_t>(rank)]; }

private:
    void serve();
    void run(const CollectiveRequest& r);
    void notify_ranks();

    const SimPlatform& platform_;
    NodeUsage& usage_;
    int ranks_;
    const CollectiveAlgorithm& algorithm_;
    std::vector<CollectiveRequest> requests_;
    std::vector<int> arrived_;  // per request: ranks that submitted it
    int done_count_ = 0;
    int ended_ = 0;
    std::optional<RunStopped> failure_;
    std::vector<Clock*> clocks_;
    std::vector<EventLog*> logs_;
    std::vector<RankCounts> counts_;
    std::vector<std::vector<std::string_view>> lane_names_;  // per rank, per usage lane: kept by the rank's log
    double start_s_ = 0;
    simgrid::s4u::MutexPtr mutex_;
    simgrid::s4u::ConditionVariablePtr cv_;
};

}  // namespace memsim
