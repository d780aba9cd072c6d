#include "models/recompute/recompute_planner.h"

#include <stdexcept>

#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "models/recompute/sublinear.h"

namespace memsim {

std::vector<std::string> recompute_planner_names() { return {"msps_on_demand", "capuchin", "sublinear"}; }

ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms) {
    if (planner == "msps_on_demand") return plan_msps_on_demand(w, budget_bytes, recompute_limit_ms);
    if (planner == "capuchin") return plan_capuchin(w, budget_bytes, recompute_limit_ms);
    if (planner == "sublinear") return plan_sublinear(w, budget_bytes, recompute_limit_ms);
    throw std::invalid_argument("unknown recompute planner '" + planner +
                                "' (known: msps_on_demand, capuchin, sublinear)");
}

}  // namespace memsim
