// Reading the policy section's choices, every family alike (sim/scenario/policy_families.h):
// a row's name and the parameters given to it, in any of the forms
//   NAME                        a row whose parameters all have defaults (or none)
//   NAME:VALUE                  a row with one parameter (handy in sweeps: lead_ops:4)
//   {NAME: VALUE}               the same as a map
//   {NAME: {KEY: VALUE, ...}}   any of its parameters by key
// and, for a family with flat parameters, KEY: VALUE beside the family's key
// (policy.recompute.seed: 7). Each value is read as its row declares (kind, unit) and
// checked against its range; errors name the file or --set, the key and the value.
#pragma once

#include <string>

#include "sim/scenario/parser.h"
#include "sim/scenario/policy_families.h"

namespace memsim {

// Reads every family's choice below `policy` (the policy section) into `spec`.
void parse_policy_choices(const YAML::Node& policy, const Parser& p, PolicySpec& spec);

// One parameter's value as its spec says, range checked; `key` names it in errors.
ParamValue parse_param_value(const YAML::Node& node, const ParamSpec& spec, const std::string& key, const Parser& p);

// "expected budget, eager, just_in_time, {lead_ops: N} or {lead_ms: T}": every form a
// family's choice can take.
std::string expected_forms(const PolicyFamily& family);

}  // namespace memsim
