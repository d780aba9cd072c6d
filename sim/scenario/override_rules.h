// How a scenario's --set assignments (and a sweep point's values, which are applied the
// same way, after them) change its tree: the one code path that `run`, `sweep`,
// `find` and `compare` resolve a scenario through (docs/budgets.md, "--set"):
//   - a whole platform given with --set platform=FILE or =MAP is applied first, then the
//     finer assignments in order;
//   - replacing the platform (or platform.memory) keeps the budget the scenario wrote
//     unless the replacement names one itself inline: a platform file's budget is the
//     machine's memory, not the question the scenario asks; the header says so;
//   - of two exclusive keys (platform.memory.budget / budget_ratio; workload.profile /
//     dtr_log / torch_snapshot / synthetic), the one set later replaces the other (with the keys that
//     belong to the source replaced: a profile's batch and costs);
//   - KEY=null removes the key;
//   - an assignment a later one makes inert is a warning.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/scenario/parser.h"

namespace memsim {

struct AppliedOverrides {
    std::string platform_file;                  // the platform file inlined ("" when written inline)
    std::map<std::string, std::string> notes;   // Scenario::notes
    std::vector<std::string> warnings;          // assignments a later one makes inert
};

// Whether the assignment `later` ("KEY=VALUE") undoes the earlier `earlier`: it sets the
// same key, its exclusive partner, or a map above it that does not hold the same value
// (a whole platform is applied first and undoes none).
bool undoes(const std::string& later, const std::string& earlier);

// Applies `overrides` to the scenario tree `root` (read from `p.label()`), inlining the
// platform file; throws InputError naming the --set.
AppliedOverrides apply_scenario_overrides(YAML::Node& root, const std::vector<std::string>& overrides, const Parser& p);

}  // namespace memsim
