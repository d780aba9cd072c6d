// The victim rules the swap selections use, one row each.
#include <array>
#include <stdexcept>
#include <string>

#include "models/swap/victim/victim_rule.h"

namespace memsim {

std::unique_ptr<VictimRule> make_budget_victim();        // budget_victim.cpp
std::unique_ptr<VictimRule> make_fixed_buffer_victim();  // fixed_buffer_victim.cpp

namespace {

const std::array kRules{
    VictimRow{"budget", "largest size x compute time until needed again", make_budget_victim},
    VictimRow{"fixed_buffer", "no further forward use first, then largest (the reference's DXR rule)",
              make_fixed_buffer_victim},
};

}  // namespace

std::span<const VictimRow> victim_rules() { return kRules; }

std::unique_ptr<VictimRule> make_victim_rule(std::string_view name) {
    if (const VictimRow* row = find_row(kRules, name)) return row->make();
    throw std::invalid_argument("unknown swap victim rule '" + std::string(name) + "'");
}

}  // namespace memsim
