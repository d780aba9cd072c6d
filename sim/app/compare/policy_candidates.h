// The policies `memsim compare` runs, read from the policy tables (models/policy_table.h):
// no policy; each swap mode that moves tensors (its row's flags), once per prefetch rule
// that runs without a parameter given when the mode issues reads by prefetch rule (the
// best one is kept); each
// recompute eviction heuristic; each recompute planner; hybrid (swap or drop per eviction).
// Each varies only its own family and keeps the rest of the scenario's policy (allocator,
// semantics, swap selection, placement and path, max_overhead, the parameters of a choice
// it makes as the scenario does: the optimal planner's time_limit).
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/scenario/scenario.h"

namespace memsim {

struct PolicyCandidate {
    std::string family;  // what --policies names: none, a swap mode, a heuristic, a planner, hybrid
    std::string label;   // as the table prints it
    YAML::Node policy;   // the run's whole policy section
};

// Every family name, in table order (for --policies and its errors).
std::vector<std::string> policy_family_names();

// The candidates of the chosen families (all when `families` is empty); throws InputError
// naming --policies for a name no table holds.
std::vector<PolicyCandidate> policy_candidates(const Scenario& base, const std::vector<std::string>& families);

// A YAML node in flow style on one line, as a --set value.
std::string flow_yaml(const YAML::Node& node);

}  // namespace memsim
