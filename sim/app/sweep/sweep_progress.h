// What a running sweep shows: on a terminal, one bar redrawn in place (points done,
// failed, running, elapsed, ETA) with failures printed above it; otherwise (a log
// file, CI) one plain line per finished point. Hand-written: Debian 12 packages no
// C++ progress-bar library (no libindicators-dev).
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace memsim {

class SweepProgress {
public:
    SweepProgress(std::size_t total, bool terminal, std::ostream& out);
    void point_finished(const std::string& description, bool failed);
    void set_running(std::size_t running) { running_ = running; }
    void redraw();  // on a terminal only; call now and then so elapsed and ETA move
    void finish();

private:
    std::string bar_line() const;
    std::size_t total_, done_ = 0, failed_ = 0, running_ = 0;
    bool terminal_;
    std::ostream& out_;
    std::chrono::steady_clock::time_point started_;
};

// "1:05", "0:07", "2:03:10"
std::string format_duration(double seconds);

}  // namespace memsim
