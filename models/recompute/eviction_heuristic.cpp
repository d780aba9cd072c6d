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
std::unique_ptr<EvictionHeuristic> scored(const char* name, const PolicyParams& params) {
    return std::make_unique<ScoredHeuristic>(name, score, params);
}

// A row whose score is staleness_score(cost, ...): the engine may index its candidates.
template <ScoreFunction score, CostFunction cost, bool reads_regions>
std::unique_ptr<EvictionHeuristic> staleness_scored(const char* name, const PolicyParams& params) {
    return std::make_unique<ScoredHeuristic>(name, score, cost, reads_regions, params);
}

ParamSpec exponent(std::string_view key, std::string_view summary, double fallback) {
    return number_param(key, summary).or_default(fallback);
}

}  // namespace

std::span<const EvictionHeuristicRow> eviction_heuristic_table() {
    static const auto heuristics = std::to_array<EvictionHeuristicRow>({
        {"dtr", "cost of the evicted neighbourhood / (size x staleness)",
         [](const PolicyParams& p) { return staleness_scored<dtr_score, dtr_cost, true>("dtr", p); }},
        {"dtr_eq", "dtr with the evicted neighbourhood approximated by union-find groups",
         [](const PolicyParams&) -> std::unique_ptr<EvictionHeuristic> { return std::make_unique<DtrEqHeuristic>(); }},
        {"dtr_local", "own compute / (size x staleness)",
         [](const PolicyParams& p) { return staleness_scored<dtr_local_score, dtr_local_cost, false>("dtr_local", p); }},
        {"msps", "compute of the evicted ancestors per byte, no staleness",
         [](const PolicyParams& p) { return scored<msps_score>("msps", p); }},
        {"lru", "the least recently accessed", [](const PolicyParams& p) { return scored<lru_score>("lru", p); }},
        {"size", "the largest", [](const PolicyParams& p) { return scored<size_score>("size", p); }},
        {"random", "a uniformly random candidate from a seeded splitmix64 stream (seed)",
         [](const PolicyParams& p) -> std::unique_ptr<EvictionHeuristic> { return std::make_unique<RandomHeuristic>(p.count("seed")); },
         {count_param("seed", "the splitmix64 stream's seed").or_default(0)}},
        {"megengine", "MegEngine's evaluation function with exponents a, b, c, d",
         [](const PolicyParams& p) { return scored<megengine_score>("megengine", p); },
         {exponent("a", "exponent of the recompute cost", 1.0), exponent("b", "base raised to the tensor's recompute count", 1.0001),
          exponent("c", "exponent of the bytes freed", 1.0), exponent("d", "exponent of the staleness", 1.0)}},
    });
    return heuristics;
}

std::vector<std::string> eviction_heuristic_names() { return row_names(eviction_heuristic_table()); }

std::unique_ptr<EvictionHeuristic> make_eviction_heuristic(const std::string& name, const ParamValues& given) {
    if (const EvictionHeuristicRow* row = find_row(eviction_heuristic_table(), name)) return row->make(PolicyParams(row->params, given));
    throw std::invalid_argument(unknown_name_message("recompute heuristic", name, eviction_heuristic_names()));
}

}  // namespace memsim
