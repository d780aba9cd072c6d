#include "models/recompute/staleness_tournament.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/recompute/staleness_score.h"

namespace memsim {

namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();
// A match is re-played once the exact ratio of its two scores may come within this of 1;
// below kUnsure at the current time it is re-played at every later time.
constexpr double kBand = 1e-10;
constexpr double kUnsure = 1e-9;

double score(const StalenessEntry& e, double now_ms) { return staleness_score(e.cost, e.bytes, now_ms, e.last_access_ms); }

// Infinite now (accessed at this instant) but finite once the clock moves past it.
bool pending(const StalenessEntry& e, double now_ms) { return e.bytes > 0 && !(now_ms > e.last_access_ms); }

// Until when two finite positive scores keep their order: ratio(t) = score_b / score_a =
// k (t - last_a) / (t - last_b) with k = (cost_b bytes_a) / (cost_a bytes_b) is monotone
// in t, from its value now towards k. The certificate ends where it may enter the band
// [1 - kBand, 1 + kBand]; the end is checked by evaluating the scores there.
double finite_certificate(const StalenessEntry& a, const StalenessEntry& b, double now_ms, double sa, double sb) {
    if (a.cost == b.cost && a.bytes == b.bytes && a.last_access_ms == b.last_access_ms) return kForever;
    const double ratio = sb / sa;
    if (std::abs(ratio - 1) <= kUnsure) return now_ms;
    const bool above = ratio > 1;
    const double k = (b.cost * a.bytes) / (a.cost * b.bytes);
    const double edge = above ? 1 + kBand : 1 - kBand;
    if (above ? k > edge : k < edge) return kForever;  // it tends to k, beyond the band on the same side
    const double enters = (k * a.last_access_ms - edge * b.last_access_ms) / (k - edge);
    double until = enters;
    for (int attempt = 0; attempt < 4; ++attempt) {
        if (!(until > now_ms) || !std::isfinite(until)) break;
        const double r = score(b, until) / score(a, until);
        if (above ? r > 1 + kBand / 2 : r < 1 - kBand / 2) return until;
        until = now_ms + (until - now_ms) / 2;
    }
    return now_ms;
}

struct Match {
    bool right;          // the right-hand (later) candidate wins
    double valid_until;  // the result holds while now <= valid_until
};

// pick_lowest_score on two candidates, a before b: the first zero, else the last of the lowest.
Match play(const StalenessEntry& a, const StalenessEntry& b, double now_ms) {
    const double sa = score(a, now_ms), sb = score(b, now_ms);
    if (sa == 0) return {false, kForever};  // a zero stays zero: its denominator only grows
    double until = kForever;
    if (pending(a, now_ms)) until = std::min(until, a.last_access_ms);
    if (sb == 0) return {true, until};
    if (pending(b, now_ms)) until = std::min(until, b.last_access_ms);
    const bool right = sb <= sa;
    if (std::isinf(sa) || std::isinf(sb)) return {right, until};
    return {right, std::min(until, finite_certificate(a, b, now_ms, sa, sb))};
}

}  // namespace

void StalenessTournament::reset(int capacity) {
    capacity_ = 1;
    while (capacity_ < capacity) capacity_ *= 2;
    const auto n = static_cast<std::size_t>(capacity_);
    entries_.assign(n, {});
    held_.assign(n, 0);
    winner_.assign(2 * n, kNone);
    valid_until_.assign(2 * n, kForever);
}

void StalenessTournament::place(int slot, const StalenessEntry& e) {
    entries_[static_cast<std::size_t>(slot)] = e;
    held_[static_cast<std::size_t>(slot)] = 1;
    winner_[static_cast<std::size_t>(capacity_ + slot)] = slot;
}

void StalenessTournament::rebuild(double now_ms) {
    now_ms_ = now_ms;
    for (int node = capacity_ - 1; node >= 1; --node) combine(node, now_ms);
}

void StalenessTournament::set(int slot, const StalenessEntry& e, double now_ms) {
    advance(now_ms);
    place(slot, e);
    replay_above(slot, now_ms);
}

void StalenessTournament::clear(int slot, double now_ms) {
    advance(now_ms);
    held_[static_cast<std::size_t>(slot)] = 0;
    winner_[static_cast<std::size_t>(capacity_ + slot)] = kNone;
    replay_above(slot, now_ms);
}

void StalenessTournament::replay_above(int slot, double now_ms) {
    for (int node = (capacity_ + slot) / 2; node >= 1; node /= 2) combine(node, now_ms);
}

int StalenessTournament::winner(double now_ms) {
    if (capacity_ == 0) return kNone;
    advance(now_ms);
    refresh(1, now_ms);
    return winner_[1];
}

// Certificates hold forwards in time only.
void StalenessTournament::advance(double now_ms) {
    if (now_ms < now_ms_) rebuild(now_ms);
    now_ms_ = now_ms;
}

void StalenessTournament::combine(int node, double now_ms) {
    const auto i = static_cast<std::size_t>(node);
    const int a = winner_[2 * i], b = winner_[2 * i + 1];
    double until = std::min(valid_until_[2 * i], valid_until_[2 * i + 1]);
    if (a == kNone || b == kNone) {
        winner_[i] = a == kNone ? b : a;
    } else {
        const Match m = play(entries_[static_cast<std::size_t>(a)], entries_[static_cast<std::size_t>(b)], now_ms);
        winner_[i] = m.right ? b : a;
        until = std::min(until, m.valid_until);
    }
    valid_until_[i] = until;
}

void StalenessTournament::refresh(int node, double now_ms) {
    if (node >= capacity_ || now_ms <= valid_until_[static_cast<std::size_t>(node)]) return;
    refresh(2 * node, now_ms);
    refresh(2 * node + 1, now_ms);
    combine(node, now_ms);
}

}  // namespace memsim
