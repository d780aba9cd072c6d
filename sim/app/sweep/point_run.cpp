#include "sim/app/sweep/point_run.h"

#include "sim/app/run/run_pipeline.h"

namespace memsim {

int run_point_here(Scenario s, const Workload& w, const std::string& dir, std::ostream& out, std::ostream& err) {
    const std::string file = s.file;
    const ScenarioRun run = run_scenario(s, w, dir);
    return report_run(run, s, file, out, err);
}

}  // namespace memsim
