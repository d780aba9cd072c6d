// The candidate a staleness-form heuristic (score = staleness_score(cost, bytes, now,
// last access): dtr, dtr_local) picks, without scoring every candidate at each eviction.
//
// Slots are positions in candidate order. A tournament tree keeps, for each subtree, the
// candidate pick_lowest_score would choose among its slots (the first zero score, else
// the last of the lowest), so the root holds the scan's choice. Scores fall as the clock
// moves, at rates that differ per candidate, so a match between two candidates can turn:
// each node also keeps until when its result is certain (a kinetic tournament), and a
// query re-plays only the nodes whose certificate has expired. The two scores of a match
// are compared as the scan compares them (the same doubles); a certificate lasts while
// the exact ratio of the two scores stays at least 1e-10 away from 1, far beyond rounding,
// and is checked by evaluating the scores at its end (the ratio is monotone in time), so
// the result at any later query is the one a scan would give.
#pragma once

#include <vector>

namespace memsim {

struct StalenessEntry {
    double cost = 0, bytes = 0, last_access_ms = 0;
};

class StalenessTournament {
public:
    static constexpr int kNone = -1;

    // `capacity` empty slots (rounded up to a power of two).
    void reset(int capacity);
    [[nodiscard]] int capacity() const { return capacity_; }
    // A candidate enters (or changes in) slot `slot`; the slot is emptied by clear.
    void set(int slot, const StalenessEntry& e, double now_ms);
    void clear(int slot, double now_ms);
    // For filling many slots at once after reset: no tree update until rebuild.
    void place(int slot, const StalenessEntry& e);
    void rebuild(double now_ms);
    // The slot the scan would choose at `now_ms`, or kNone when every slot is empty. The
    // clock should not go back; if it does, the whole tree is re-played.
    int winner(double now_ms);
    [[nodiscard]] bool held(int slot) const { return held_[static_cast<std::size_t>(slot)] != 0; }
    [[nodiscard]] const StalenessEntry& entry(int slot) const { return entries_[static_cast<std::size_t>(slot)]; }

private:
    void advance(double now_ms);
    void replay_above(int slot, double now_ms);  // the matches on the slot's path to the root
    void combine(int node, double now_ms);
    void refresh(int node, double now_ms);

    int capacity_ = 0;
    double now_ms_ = 0;
    std::vector<StalenessEntry> entries_;
    std::vector<char> held_;
    std::vector<int> winner_;          // per node (1-based heap; leaves at capacity_ + slot)
    std::vector<double> valid_until_;  // per node: its winner is certain while now <= this
};

}  // namespace memsim
