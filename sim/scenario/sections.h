// The scenario's sections, each read from its YAML node into its spec.
#pragma once

#include "sim/scenario/parser.h"
#include "sim/scenario/scenario.h"

namespace memsim {

WorkloadSpec parse_workload(const YAML::Node& n, const Parser& p);
PlatformSpec parse_platform(const YAML::Node& n, const Parser& p);
PolicySpec parse_policy(const YAML::Node& n, const Parser& p);
OutputSpec parse_output(const YAML::Node& n, const Parser& p, const std::string& name);

}  // namespace memsim
