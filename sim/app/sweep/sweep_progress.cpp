#include "sim/app/sweep/sweep_progress.h"

#include <cmath>

#include <fmt/format.h>

namespace memsim {

std::string format_duration(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    if (s >= 3600) return fmt::format("{}:{:02d}:{:02d}", s / 3600, (s / 60) % 60, s % 60);
    return fmt::format("{}:{:02d}", s / 60, s % 60);
}

SweepProgress::SweepProgress(std::size_t total, bool terminal, std::ostream& out)
    : total_(total), terminal_(terminal), out_(out), started_(std::chrono::steady_clock::now()) {
    redraw();
}

std::string SweepProgress::bar_line() const {
    constexpr std::size_t kBarWidth = 30;
    const std::size_t filled = total_ ? done_ * kBarWidth / total_ : kBarWidth;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    // Finished points so far predict the rest (they run in parallel, so the rate already counts that).
    const std::string eta = done_ == 0 ? "?" : format_duration(elapsed / static_cast<double>(done_) *
                                                               static_cast<double>(total_ - done_));
    return fmt::format("[{}{}] {}/{} points  {} failed  {} running  elapsed {}  ETA {}", std::string(filled, '#'),
                       std::string(kBarWidth - filled, '.'), done_, total_, failed_, running_, format_duration(elapsed),
                       eta);
}

void SweepProgress::redraw() {
    if (!terminal_) return;
    out_ << "\r\033[K" << bar_line() << std::flush;
}

void SweepProgress::point_finished(const std::string& description, bool failed) {
    ++done_;
    if (failed) ++failed_;
    if (terminal_) {
        if (failed) out_ << "\r\033[K" << description << "\n";
        redraw();
    } else {
        out_ << fmt::format("[{}/{}] {}\n", done_, total_, description) << std::flush;
    }
}

void SweepProgress::finish() {
    if (terminal_) out_ << "\r\033[K" << bar_line() << "\n" << std::flush;
}

}  // namespace memsim
