// A bare SimGrid loop: one actor on a 1000 flop/s host executes N activities of 1 ms
// each (as memsim's GPU stream does, without memory accounting or an event log), and a
// second actor waits on a condition variable the whole time (as memsim's disk actor
// does when nothing is swapped). scripts/bench.sh times it next to memsim runs of N
// operators: the difference per activity is memsim's own overhead. It also prints the
// CPU time of its simulation alone (engine, platform, actors, run), which
// bench/engine_run.cpp measures the same way for memsim's engine.
//   bare_simgrid_loop N [KEEP_BYTES]
// With KEEP_BYTES, each activity also writes that many bytes of memory that stays until
// the end, as memsim keeps its workload, tensor table and plan: fresh pages at memsim's
// rate, whose cost is the machine's (docs/performance.md, "What a fresh page costs").
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "bench/cpu_clock.h"

namespace sg = simgrid::s4u;

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 1000;
    const long keep = argc > 2 ? std::atol(argv[2]) : 0;
    // Not written here: the allocator hands out pages the kernel maps on first write.
    const std::unique_ptr<char[]> kept(keep > 0 ? new char[static_cast<std::size_t>(n * keep)] : nullptr);
    const double start = process_cpu_seconds();
    static char name[] = "bare";
    static char quiet[] = "--log=root.thres:critical";
    static char* fake_argv[] = {name, quiet, nullptr};
    int fake_argc = 2;
    sg::Engine engine(&fake_argc, fake_argv);
    xbt_log_control_set("root.thres:critical");
    auto* zone = sg::create_full_zone("root");
    sg::Host* host = zone->create_host("gpu", 1e3);
    zone->seal();
    auto mutex = sg::Mutex::create();
    auto cv = sg::ConditionVariable::create();
    bool done = false;
    sg::Actor::create("gpu_stream", host, [&] {
        for (long i = 0; i < n; ++i) {
            sg::this_actor::exec_init(1.0)->wait();
            if (keep > 0) std::memset(kept.get() + i * keep, static_cast<int>(i), static_cast<std::size_t>(keep));
        }
        std::unique_lock lock(*mutex);
        done = true;
        cv->notify_all();
    });
    sg::Actor::create("disk_io", host, [&] {
        std::unique_lock lock(*mutex);
        cv->wait(lock, [&] { return done; });
    });
    engine.run();
    const double cpu = process_cpu_seconds() - start;
    std::printf("%ld activities, simulated %.3f s, simulation %.6f s CPU\n", n, sg::Engine::get_clock(), cpu);
    std::fflush(nullptr);
    std::_Exit(0);  // like memsim: no static teardown of SimGrid and ns-3
}
