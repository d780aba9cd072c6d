// The simulated clock of one run and the one condition every actor waits on: now(),
// wait_until (a stall of the GPU stream, logged and counted), and the run's error state.
#pragma once

#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim {

// A run that cannot go on: out of memory or thrashing. Becomes summary.status.
struct RunStopped {
    std::string status;
    std::string message;
};

class Clock {
public:
    explicit Clock(EventLog& log) : log_(log) {}

    void start();  // at the start of the SimGrid run
    [[nodiscard]] double now() const { return (simgrid::s4u::Engine::get_clock() - start_s_) * 1e3; }
    // The policies' clock in DTR semantics: operator time only.
    [[nodiscard]] double op_clock_ms() const { return op_clock_ms_; }
    void advance_op_clock(double ms) { op_clock_ms_ += ms; }

    void notify() { cv_->notify_all(); }
    // Blocks the calling actor until `ready` (or an actor failed); the wait is a stall
    // of op `op`, logged with `why`.
    template <typename Pred>
    void wait_until(Pred ready, int op, const char* why, std::vector<TensorId> waited_for = {}) {
        if (ready()) return;
        const double start = now();
        {
            std::unique_lock lock(*mutex_);
            cv_->wait(lock, [&] { return ready() || error_; });
        }
        if (error_) std::rethrow_exception(error_);
        const double end = now();
        if (end > start) {
            stall_ms_ += end - start;
            log_.add({lane::kStall, start, end, op, why, std::move(waited_for), 0});
        }
    }
    // The same without a stall (the disk actor waiting for work).
    template <typename Pred>
    void block_until(Pred ready) {
        std::unique_lock lock(*mutex_);
        cv_->wait(lock, ready);
    }

    [[nodiscard]] double stall_ms() const { return stall_ms_; }  // every stall so far

    void fail(std::exception_ptr error) { error_ = std::move(error); }
    [[nodiscard]] const std::exception_ptr& error() const { return error_; }

private:
    EventLog& log_;
    simgrid::s4u::MutexPtr mutex_;
    simgrid::s4u::ConditionVariablePtr cv_;
    double start_s_ = 0;
    double op_clock_ms_ = 0;
    double stall_ms_ = 0;
    std::exception_ptr error_;
};

}  // namespace memsim
