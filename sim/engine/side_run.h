// A simulation whose only answer is a number, run in a forked child: SimGrid's clock
// never restarts within a process, so a run after another starts at a later absolute
// time and its times differ from a lone run's in the last bits. The engine's measuring
// runs (the no-prefetch peak) go to a child so the run the user asked for stays
// byte-identical to running it alone.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace memsim {

// `measure` started in a fork of this process, which goes on with its own work while
// the child runs (on a second core, the two overlap). A process that cannot fork is an
// error naming `what` and the OS reason, not a silent run in this process: that would
// shift this run's times in the last bits (see above).
class ChildMeasurement {
public:
    ChildMeasurement(const std::function<std::uint64_t()>& measure, const std::string& what);
    ChildMeasurement(const ChildMeasurement&) = delete;
    ChildMeasurement& operator=(const ChildMeasurement&) = delete;
    ~ChildMeasurement();  // a child never collected (this process failed first) is killed and reaped
    // Waits for the child: its value, or none if it failed (then error() says why). Once only.
    std::optional<std::uint64_t> result();
    // Why the child gave no value: its exception's message, or how it ended.
    [[nodiscard]] const std::string& error() const { return error_; }

private:
    int pid_ = -1;
    int read_fd_ = -1;
    std::string error_;
};

}  // namespace memsim
