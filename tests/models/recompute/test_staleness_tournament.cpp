// The kinetic tournament behind DTR's candidate index: hand-worked matches, then its
// choice against pick_lowest_score over every held slot, as the clock moves and slots
// change (random, with many ties).
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include "models/recompute/staleness_score.h"
#include "models/recompute/staleness_tournament.h"
#include "models/recompute/tensor_graph.h"

using namespace memsim;

TEST_CASE("a staleness tournament turns when the older, costlier candidate becomes the cheaper one") {
    // a: cost 4, last access 0 -> 4 / t; b: cost 1, last access 10 -> 1 / (t - 10).
    // Equal at 4 (t - 10) = t, t = 40/3: a is lower before, b after.
    StalenessTournament tour;
    tour.reset(2);
    tour.set(0, {4, 1, 0}, 11);
    tour.set(1, {1, 1, 10}, 11);
    CHECK(tour.winner(11) == 0);    // 0.364 against 1
    CHECK(tour.winner(13) == 0);    // 0.3077 against 0.3333
    CHECK(tour.winner(13.5) == 1);  // 0.2963 against 0.2857
    CHECK(tour.winner(100) == 1);
}

TEST_CASE("a staleness tournament keeps the scan's rules: the last of equal scores, the first zero, infinity at staleness 0") {
    StalenessTournament tour;
    tour.reset(4);
    for (int s = 0; s < 4; ++s) tour.set(s, {2, 8, 1}, 3);
    CHECK(tour.winner(3) == 3);  // four equal scores: the last
    tour.set(1, {0, 8, 1}, 3);
    tour.set(2, {0, 8, 1}, 3);
    CHECK(tour.winner(3) == 1);  // the first zero
    tour.clear(1, 3);
    tour.clear(2, 3);
    // Slot 0: 2 / (8 (t - 1)); slot 3: 1 / (8 (t - 5)), infinite at t = 5, lower once
    // t - 1 < 2 (t - 5), i.e. t > 9.
    tour.set(3, {1, 8, 5}, 5);
    CHECK(tour.winner(5) == 0);   // 0.0625 against infinity
    CHECK(tour.winner(8) == 0);   // 0.0357 against 0.0417
    CHECK(tour.winner(10) == 3);  // 0.0278 against 0.025
    CHECK(tour.winner(4) == 0);   // the clock went back: re-played; slot 3 is infinite again
}

TEST_CASE("a staleness tournament chooses what pick_lowest_score chooses, as the clock moves and slots change") {
    // Small integers make equal scores and exact crossings common; a linear congruential
    // stream keeps the test reproducible.
    std::uint64_t state = 12345;
    auto next = [&](int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    };
    for (int round = 0; round < 200; ++round) {
        const int slots = 1 + next(40);
        StalenessTournament tour;
        tour.reset(slots);
        std::vector<std::optional<StalenessEntry>> held(static_cast<std::size_t>(slots));
        double now = 0;
        for (int step = 0; step < 300; ++step) {
            now += next(4) * 0.5;  // often stays put
            const int slot = next(slots);
            if (next(5) == 0) {
                held[static_cast<std::size_t>(slot)].reset();
                tour.clear(slot, now);
            } else {
                const StalenessEntry e{static_cast<double>(next(4)), static_cast<double>(next(3) * 4), now - next(6)};
                held[static_cast<std::size_t>(slot)] = e;
                tour.set(slot, e, now);
            }
            std::vector<double> scores;
            std::vector<int> which;
            for (int s = 0; s < slots; ++s)
                if (const auto& e = held[static_cast<std::size_t>(s)]) {
                    scores.push_back(staleness_score(e->cost, e->bytes, now, e->last_access_ms));
                    which.push_back(s);
                }
            const int expected = which.empty() ? StalenessTournament::kNone : which[pick_lowest_score(scores)];
            INFO("round " << round << " step " << step << " now " << now);
            REQUIRE(tour.winner(now) == expected);
        }
    }
}
