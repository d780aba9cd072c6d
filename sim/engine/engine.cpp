// The wiring: builds the platform, the semantics' rules and the parts of a run (the
// clock, the tensor table, the swap side, the disk queue, the memory manager, the
// policies' view, the swap scheduler, the GPU stream) around one EngineContext, runs
// the two actors, and assembles the summary from the parts' counters. On a node of
// several GPUs (docs/tiers.md) there is one such set of parts per GPU, all sharing
// the node's host RAM (HostTier) and SimGrid's links and disks, run in one simulation.
#include "sim/engine/engine.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "sim/engine/collectives.h"
#include "sim/engine/gpu_stream.h"
#include "sim/engine/host_optimizer.h"
#include "sim/engine/rank_collectives.h"
#include "sim/engine/policy_view.h"
#include "sim/engine/semantics_rules.h"
#include "sim/engine/platform.h"
#include "sim/engine/host_tier.h"
#include "sim/engine/node_usage.h"

namespace memsim {

namespace {

namespace sg = simgrid::s4u;

// Who picks forced evictions and where they go: a recompute heuristic picks first;
// otherwise the selection's victim rule, whose victims go to disk.
EvictionPolicy eviction_policy(const EngineConfig& c, const SwapSelection& selection, const SwapMode& mode) {
    EvictionPolicy p;
    if (c.make_heuristic) p.heuristic = c.make_heuristic();
    p.victim = selection.victim_rule();
    p.spill = mode.moves_tensors() && p.victim && (!p.heuristic || selection.spills_heuristic_victims());
    p.hybrid = c.hybrid;
    return p;
}

class Engine {
public:
    // `reads` is w as its storages are read (with_storage_reads), what the swap
    // selection plans on; w itself when it has no views.
    Engine(const Workload& w, const Workload& reads, const EngineConfig& c, const ExecPlan& plan, const SimPlatform& platform,
           HostTier& host, NodeUsage& usage, int gpu, std::unique_ptr<SwapSelection> selection, std::unique_ptr<SwapMode> mode,
           std::unique_ptr<PrefetchRule> prefetch, Collectives* collectives = nullptr, const StepCollectives* step = nullptr,
           const OffloadStep* offload = nullptr)
        : w_(w),
          c_(c),
          plan_(plan),
          gpu_index_(gpu),
          platform_(platform),
          rules_(make_semantics_rules(c.semantics.rules, ctx_, w)),
          offload_(offload
                       ? std::make_unique<HostOptimizer>(platform, usage, host, *c.platform.host_cpu, *offload, gpu, clock_, log_)
                       : nullptr),
          rank_(collectives ? std::make_unique<RankCollectives>(*collectives, *step, gpu, clock_, offload_.get()) : nullptr),
          ctx_{w,    plan,  c,      platform_, log_,  *rules_, clock_, tensors_, io_,
               host, usage, queue_, memory_,   view_, swap_,   gpu_,   gpu,      rank_.get()},
          clock_(log_),
          tensors_(w, plan, c.platform.gpu_speed_scale),
          io_(ctx_),
          queue_(ctx_),
          memory_(ctx_, eviction_policy(c, *selection, *mode)),
          view_(ctx_),
          swap_(ctx_, std::move(mode), std::move(prefetch)),
          gpu_(ctx_) {
        if (swap_.moves_tensors()) swap_.set_plan((c.hybrid ? make_hybrid_selection() : std::move(selection))->plan(reads, selection_inputs(c)));
    }

    // Creates this GPU's two actors; the caller runs the simulation once for every GPU.
    void start() {
        // One activity per step plus I/O; about two memory samples and two residency
        // changes (taken, given back) per tensor.
        log_.recording = c_.record_events;
        if (c_.record_events) {
            log_.activities.reserve(plan_.size() + plan_.size() / 4);
            log_.memory.reserve(2 * w_.tensors.size() + 16);
            log_.residency.reserve(2 * w_.tensors.size() + 16);
        }
        clock_.start();
        simgrid::s4u::Host* gpu = platform_.gpu_host(gpu_index_);
        // GPU i starts i offsets late (platform.gpu_offset_ms); 0 on a single GPU.
        const double offset_s = gpu_index_ * c_.platform.gpu_offset_ms / 1e3;
        sg::Actor::create("gpu_stream", gpu, [this, offset_s] {
            if (offset_s > 0) sg::this_actor::sleep_for(offset_s);
            gpu_.run();
        });
        // Not a daemon: daemons outlive run() in SimGrid 3.32 and would wake up inside the
        // next simulation of the same process. The GPU stream tells it to stop instead.
        sg::Actor::create("disk_io", gpu, [this] { queue_.serve(); });
    }

    // Ties this rank's clock and log to the node's collectives (before start()), and
    // marks the buffers its collectives need (docs/parallel.md, "Transient buffers").
    void attach(Collectives& node, const RankWorkload& rank) {
        node.attach(gpu_index_, clock_, log_);
        for (const ParameterGather& g : rank.gathers)
            for (TensorId t : g.storages) memory_.mark_transient(t, TransientKind::gathered_parameter);
        for (TensorId full : rank.full_gradient_of)
            if (full >= 0) memory_.mark_transient(full, TransientKind::unreduced_gradient);
    }
    [[nodiscard]] const TransientBytes& transient_peaks() const { return memory_.transient_peaks(); }
    [[nodiscard]] double exposed_collective_ms() const { return rank_ ? rank_->exposed_ms() : 0.0; }
    [[nodiscard]] const HostOptimizer* host_optimizer() const { return offload_.get(); }

    // After the simulation: this GPU's result, its tier bytes added to `tiers`.
    RunResult finish(TierBytes& tiers) {
        // An error inside an actor first: it is the cause of an unfinished run.
        if (clock_.error()) std::rethrow_exception(clock_.error());
        if (!gpu_.finished() && !gpu_.stopped())
            throw InvariantError("the simulation deadlocked before the last operator (an actor waited for an event nobody signals)");
        const TierBytes mine = io_.tier_resident();
        for (TierId t = 0; t < kTierCount; ++t) tiers[t] += mine[t];
        RunResult result{summary(), std::move(log_)};
        return result;
    }

    [[nodiscard]] bool stopped() const { return gpu_.stopped().has_value(); }
    [[nodiscard]] const SwapIo::Counts& io_counts() const { return io_.counts(); }

private:
    // On the node a swap is timed on the tier the placement rule would pick for it.
    SelectionInputs selection_inputs(const EngineConfig& c) const {
        SelectionInputs in{c.budget, TransferModel(c.platform.disk), c.platform.gpu_speed_scale, {}};
        if (!c.platform.has_host_tier() || !c.make_placement) return in;
        // Planned before the run: every tier as free as it starts (its capacity), its
        // transfer model, built once.
        PlacementInput empty{};
        const std::vector<TierSpec> tiers = c.platform.tiers();
        std::vector<TransferModel> models;
        for (TierId t = 0; t < kTierCount; ++t) {
            empty.free[t] = tiers[t].holds_space ? tiers[t].capacity.value_or(std::numeric_limits<std::uint64_t>::max())
                                                 : std::numeric_limits<std::uint64_t>::max();
            models.push_back(tier_model(tiers[t], gpu_index_, c.swap_path.bounce));
        }
        in.tier_of = [empty, models = std::move(models), bounce = c.swap_path.bounce,
                      rule = std::shared_ptr<PlacementRule>(c.make_placement())](std::uint64_t bytes, double ms_to_next_use) {
            PlacementInput place = empty;
            place.bytes = bytes;
            place.staging_bytes = bounce ? bytes : 0;
            place.ms_to_next_use = ms_to_next_use;
            return models[rule->place(place).value_or(kNearestTier)];
        };
        return in;
    }

    // The summary, assembled once from every component's own counters.
    Summary summary() {
        Summary sm;
        if (const std::optional<RunStopped>& stop = gpu_.stopped()) {
            sm.status = stop->status;
            sm.message = stop->message;
        }
        sm.scenario = c_.scenario_name;
        sm.workload = workload_label(w_);
        sm.allocator = memory_.allocator().name();
        sm.semantics = c_.semantics_label;
        sm.swap_mode = c_.swap_mode_label;
        sm.budget_bytes = c_.budget;
        sm.budget_ratio = c_.budget_ratio;
        sm.budget_base_bytes = c_.budget_base;
        sm.peak_bytes = memory_.allocator().peak_bytes();
        sm.live_peak_bytes = memory_.live_peak();
        if (has_roles(w_)) {
            sm.live_peak_by_role.emplace();
            for (TensorRole r : kTensorRoles)
                sm.live_peak_by_role->emplace_back(r, memory_.live_peak_by_role()[static_cast<std::size_t>(r)]);
        }
        sm.caching = memory_.allocator().caching_figures();
        log_.reports_allocated = sm.caching.has_value();
        sm.time_ms = gpu_.end_ms();
        if (gpu_.stopped()) sm.stopped_at_ms = sm.time_ms;
        const GpuStream::Counts& gpu = gpu_.counts();
        sm.compute_ms = gpu.compute_ms;
        sm.iteration_compute_ms = w_.compute_ms() / c_.platform.gpu_speed_scale;  // compute_ms: as ops ran
        sm.stall_ms = clock_.stall_ms();
        const SwapIo::Counts& io = io_.counts();
        sm.bytes_written = io.bytes_written;
        sm.bytes_read = io.bytes_read;
        sm.swap_selected_tensors = swap_.plan().selected.size();
        sm.swap_writes = io.writes;
        sm.swap_reads = io.reads;
        sm.swap_writes_cancelled = io.cancelled_writes;
        sm.swap_freed_bytes = io.freed_bytes;
        sm.recomputed_ops = gpu.recomputed_ops;
        sm.recompute_ms = gpu.recompute_ms;
        if (gpu.model_recomputed_ops > 0) {  // the model's own checkpointing (only where it has some)
            sm.details["model_recomputed_ops"] = static_cast<double>(gpu.model_recomputed_ops);
            sm.details["model_recompute_ms"] = gpu.model_recompute_ms;
        }
        const EvictionCounts& evictions = memory_.evictions();
        sm.evictions = evictions.to_disk + evictions.dropped;
        sm.evictions_to_disk = evictions.to_disk;
        sm.drops = evictions.dropped;
        sm.ops = w_.ops.size();
        sm.activities = gpu.executions + queue_.served();
        sm.forward_end = w_.forward_end;
        if (c_.hybrid) {
            sm.details["hybrid_swapped"] = static_cast<double>(evictions.hybrid_swapped);
            sm.details["hybrid_dropped"] = static_cast<double>(evictions.hybrid_dropped);
        }
        if (swap_.moves_tensors()) sm.details["swap_selected_bytes"] = static_cast<double>(swap_.plan().selected_bytes);
        if (log_.forward_end_ms >= 0) {
            sm.details["forward_ms"] = log_.forward_end_ms;
            sm.details["backward_ms"] = sm.time_ms - log_.forward_end_ms;
        }
        log_.budget_bytes = c_.budget;
        return sm;
    }

    const Workload& w_;
    const EngineConfig& c_;
    const ExecPlan& plan_;
    int gpu_index_;
    EventLog log_;
    const SimPlatform& platform_;
    std::unique_ptr<SemanticsRules> rules_;  // keeps ctx_, built just after it
    std::unique_ptr<HostOptimizer> offload_;  // keeps clock_ and log_, built after it
    std::unique_ptr<RankCollectives> rank_;   // keeps clock_, built after it
    EngineContext ctx_;                       // refers to the parts below, built after it in this order
    Clock clock_;
    TensorTable tensors_;
    SwapIo io_;
    TransferQueue queue_;
    MemoryManager memory_;
    PolicyView view_;
    SwapScheduler swap_;
    GpuStream gpu_;
};

NodeFigures node_figures(const HostTier& host, const NodeUsage& usage, const std::vector<RunResult>& gpus,
                         const std::vector<SwapIo::Counts>& io) {
    NodeFigures n;
    n.host_peak_bytes = host.peak();
    n.host_capacity_bytes = host.capacity();
    for (TierId t = 0; t < kTierCount; ++t) {
        const HostTier::TierCounts& c = host.tiers[t];
        n.tiers[t] = {c.in, c.read, c.out - c.read};
    }
    for (std::size_t g = 0; g < gpus.size(); ++g) {
        const Summary& s = gpus[g].summary;
        n.step_time_ms = std::max(n.step_time_ms, s.time_ms);
        n.gpus.push_back({s.status, s.time_ms, s.stall_ms, io[g].bytes_written, io[g].bytes_read, std::nullopt});
    }
    n.links = usage.links(n.step_time_ms);
    n.disks = usage.disks(n.step_time_ms);
    return n;
}

// One log for the node: GPU 0's with every other GPU's records after it, and what the
// renderers need to name the node's parts. Checks that the resource lanes account for
// every byte the requests moved.
void node_log(EventLog& log, std::vector<RunResult>& gpus, const HostTier& host, const NodeUsage& usage) {
    log.node = true;
    log.gpus = static_cast<int>(gpus.size());
    log.host_capacity_bytes = host.capacity();
    for (std::size_t g = 1; g < gpus.size(); ++g) log.append_gpu(std::move(gpus[g].log), static_cast<int>(g));
    for (int g = 0; g < log.gpus; ++g) {
        log.route_d2h.push_back(usage.route_text(g, true));
        log.route_h2d.push_back(usage.route_text(g, false));
    }
    for (int l = 0; l < usage.lane_count(); ++l) log.resource_lanes.push_back(usage.lane(l));
    usage.check_log(log);
}

}  // namespace

RunResult simulate(const Workload& given, const EngineConfig& config, const ExecPlan& plan) {
    const ActorThreadsOnOneCpu one_cpu;
    HostTier host(config.platform);
    // Built once for the run: every GPU's engine parts and the usage meter share it.
    const SimPlatform platform = build_platform(config.platform);
    NodeUsage usage;
    usage.describe(platform);
    // Data-parallel ranks (docs/parallel.md) all run the rank's share of the step.
    const std::optional<DataParallelConfig>& dp = config.data_parallel;
    const int ranks = config.platform.gpus;
    const std::optional<RankWorkload> sharded = dp ? std::optional(shard_for_rank(given, *dp->stage, ranks, dp->bucket_bytes,
                                                                                  dp->offload_optimizer))
                                                   : std::nullopt;
    const Workload& w = sharded ? sharded->workload : given;
    std::optional<StepCollectives> step;
    std::optional<Collectives> collectives;
    if (dp) {
        usage.describe_peers(platform);
        step = plan_step_collectives(*sharded, *dp->stage, dp->bucket_bytes);
        collectives.emplace(platform, usage, ranks, *dp->algorithm, step->requests);
    }
    const std::optional<Workload> storage_reads = has_views(w) ? std::optional(with_storage_reads(w)) : std::nullopt;
    std::vector<std::unique_ptr<Engine>> engines;
    for (int g = 0; g < ranks; ++g)
        engines.push_back(std::make_unique<Engine>(w, storage_reads ? *storage_reads : w, config, plan, platform, host, usage, g,
                                                   config.make_selection(), config.make_swap_mode(), config.make_prefetch(),
                                                   collectives ? &*collectives : nullptr, step ? &*step : nullptr,
                                                   sharded && sharded->offload ? &*sharded->offload : nullptr));
    host.start();
    for (auto& engine : engines) {
        if (collectives) engine->attach(*collectives, *sharded);
        engine->start();
    }
    if (collectives) collectives->start();
    sg::Engine::get_instance()->run();
    TierBytes resident{};
    std::vector<RunResult> results;
    std::vector<SwapIo::Counts> io;
    bool stopped = false;
    for (auto& engine : engines) {
        results.push_back(engine->finish(resident));
        io.push_back(engine->io_counts());
        stopped = stopped || engine->stopped();
    }
    if (!stopped) host.check_invariants(resident);
    std::optional<NodeFigures> node;
    if (host.enabled()) node = node_figures(host, usage, results, io);
    if (node && dp) {
        const ModelStates states = rank_model_states(given, *dp->stage, ranks);
        node->data_parallel = dp->label;
        for (int g = 0; g < ranks; ++g) {
            const Collectives::RankCounts& c = collectives->counts(g);
            const Engine& e = *engines[static_cast<std::size_t>(g)];
            NodeFigures::Rank rank{states,      c.bytes_sent, c.collective_ms, e.exposed_collective_ms(), e.transient_peaks(),
                                   std::nullopt};
            if (const HostOptimizer* o = e.host_optimizer()) {
                rank.offload = NodeFigures::Offload{o->moved_bytes(), o->step_ms(), rank.model_state.optimizer_state};
                rank.model_state.optimizer_state = 0;  // on the host, not the GPU
            }
            node->gpus[static_cast<std::size_t>(g)].rank = rank;
        }
    }
    RunResult result = std::move(results.front());
    if (node) {
        result.summary.node = std::move(node);
        // The node's status: the first GPU that stopped says why (results[0] is moved into result).
        for (std::size_t g = 1; g < results.size() && !engines[0]->stopped(); ++g)
            if (engines[g]->stopped()) {
                result.summary.status = results[g].summary.status;
                result.summary.stopped_at_ms = results[g].summary.stopped_at_ms;
                result.summary.message = fmt::format("GPU {}: {}", g, results[g].summary.message);
                break;
            }
        result.log.host_memory = host.take_samples();
        node_log(result.log, results, host, usage);
    }
    return result;
}

}  // namespace memsim
