#include "models/recompute/eviction_heuristic.h"

#include <stdexcept>

#include "models/recompute/dtr_eq_heuristic.h"
#include "models/recompute/dtr_heuristic.h"
#include "models/recompute/dtr_local_heuristic.h"
#include "models/recompute/lru_heuristic.h"
#include "models/recompute/megengine_heuristic.h"
#include "models/recompute/msps_heuristic.h"
#include "models/recompute/random_heuristic.h"
#include "models/recompute/size_heuristic.h"

namespace memsim {

std::vector<std::string> eviction_heuristic_names() {
    return {"dtr", "dtr_eq", "dtr_local", "msps", "lru", "size", "random", "megengine"};
}

std::unique_ptr<EvictionHeuristic> make_eviction_heuristic(const std::string& name, const HeuristicParams& params) {
    if (name == "dtr") return std::make_unique<DtrHeuristic>();
    if (name == "dtr_eq") return std::make_unique<DtrEqHeuristic>();
    if (name == "dtr_local") return std::make_unique<DtrLocalHeuristic>();
    if (name == "msps") return std::make_unique<MspsHeuristic>();
    if (name == "lru") return std::make_unique<LruHeuristic>();
    if (name == "size") return std::make_unique<SizeHeuristic>();
    if (name == "random") return std::make_unique<RandomHeuristic>(params.seed);
    if (name == "megengine") return std::make_unique<MegEngineHeuristic>(params);
    std::string known;
    for (const std::string& n : eviction_heuristic_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown recompute heuristic '" + name + "' (known: " + known + ")");
}

}  // namespace memsim
