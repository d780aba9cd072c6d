#include "models/recompute/eviction_heuristic.h"

#include <array>
#include <stdexcept>

#include "models/recompute/dtr_eq_heuristic.h"
#include "models/recompute/random_heuristic.h"
#include "models/recompute/scored_heuristic.h"

namespace memsim {

namespace {

// A row whose heuristic is a scoring function.
template <ScoreFunction score>
std::unique_ptr<EvictionHeuristic> scored(const char* name, const HeuristicParams& params) {
    return std::make_unique<ScoredHeuristic>(name, score, params);
}

// A row whose score is staleness_score(cost, ...): the engine may index its candidates.
template <ScoreFunction score, CostFunction cost, bool reads_regions>
std::unique_ptr<EvictionHeuristic> staleness_scored(const char* name, const HeuristicParams& params) {
    return std::make_unique<ScoredHeuristic>(name, score, cost, reads_regions, params);
}

const std::array<EvictionHeuristicRow, 8> kHeuristics{{
    {"dtr", "cost of the evicted neighbourhood / (size x staleness)",
     [](const HeuristicParams& p) { return staleness_scored<dtr_score, dtr_cost, true>("dtr", p); }},
    {"dtr_eq", "dtr with the evicted neighbourhood approximated by union-find groups",
     [](const HeuristicParams&) -> std::unique_ptr<EvictionHeuristic> { return std::make_unique<DtrEqHeuristic>(); }},
    {"dtr_local", "own compute / (size x staleness)",
     [](const HeuristicParams& p) { return staleness_scored<dtr_local_score, dtr_local_cost, false>("dtr_local", p); }},
    {"msps", "compute of the evicted ancestors per byte, no staleness",
     [](const HeuristicParams& p) { return scored<msps_score>("msps", p); }},
    {"lru", "the least recently accessed", [](const HeuristicParams& p) { return scored<lru_score>("lru", p); }},
    {"size", "the largest", [](const HeuristicParams& p) { return scored<size_score>("size", p); }},
    {"random", "a uniformly random candidate from a seeded splitmix64 stream (seed)",
     [](const HeuristicParams& p) -> std::unique_ptr<EvictionHeuristic> { return std::make_unique<RandomHeuristic>(p.seed); }},
    {"megengine", "MegEngine's evaluation function with exponents a, b, c, d",
     [](const HeuristicParams& p) { return scored<megengine_score>("megengine", p); }},
}};

}  // namespace

std::span<const EvictionHeuristicRow> eviction_heuristic_table() { return kHeuristics; }

std::vector<std::string> eviction_heuristic_names() { return row_names(kHeuristics); }

std::unique_ptr<EvictionHeuristic> make_eviction_heuristic(const std::string& name, const HeuristicParams& params) {
    if (const EvictionHeuristicRow* row = find_row(kHeuristics, name)) return row->make(params);
    throw std::invalid_argument(unknown_name_message("recompute heuristic", name, eviction_heuristic_names()));
}

}  // namespace memsim
