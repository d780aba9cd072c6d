// The parts of one run, wired once (engine.cpp): each component is built from this
// context and reaches the others through it, so none is connected to another after
// its construction. The parts are built in the order of the fields below; a component
// may keep references to any of them (of their own type: taking a base-class reference
// needs the part built), but use one only once it is built, in practice once the run
// starts. Each keeps its own counters; the engine assembles the summary from them when
// the run ends.
#pragma once

#include "models/workload/exec_plan.h"
#include "models/workload/workload.h"
#include "sim/engine/engine_config.h"
#include "sim/engine/event_log.h"
#include "sim/engine/platform.h"

namespace memsim {

class Clock;
class TensorTable;
class TransferQueue;
class HostTier;
class NodeUsage;
class MemoryManager;
class PolicyView;
class SwapIo;
class SwapScheduler;
class GpuStream;
class SemanticsRules;
class RankCollectives;

struct EngineContext {
    const Workload& workload;
    const ExecPlan& plan;
    const EngineConfig& config;
    const SimPlatform& platform;  // the SimGrid resources
    EventLog& log;
    SemanticsRules& rules;  // where the semantics differ (semantics_rules.h)
    Clock& clock;
    TensorTable& tensors;
    SwapIo& io;  // before the disk queue and the memory manager, which hold it by its interfaces
    HostTier& host;  // host RAM and the tiers' traffic (docs/tiers.md)
    NodeUsage& usage;  // the node's links and disks: what each request occupied
    TransferQueue& queue;  // the GPU's copy queue: every swap to and from every tier
    MemoryManager& memory;
    const PolicyView& view;
    SwapScheduler& swap;
    GpuStream& stream;
    int gpu = 0;  // which GPU of the node this run's parts are (docs/tiers.md)
    RankCollectives* collectives = nullptr;  // this rank's collectives under policy.data_parallel
};

}  // namespace memsim
