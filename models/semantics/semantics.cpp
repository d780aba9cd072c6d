#include "models/semantics/semantics.h"

#include <array>

#include "models/swap/prefetch/reference_prefetch.h"

namespace memsim {

namespace {

Semantics simulated() { return {}; }
Semantics reference() { return {EngineRules::Reference, false, true, make_reference_prefetch}; }
Semantics dtr() { return {EngineRules::DtrRuntime, true, false, nullptr}; }

const std::array kSemantics{
    SemanticsRow{"simulated", "memsim's own rules", simulated},
    SemanticsRow{"reference", "the reference swap simulator's rules (feature_maps selection)", reference},
    SemanticsRow{"dtr", "the published DTR runtime's rules", dtr},
};

}  // namespace

std::span<const SemanticsRow> semantics_table() { return kSemantics; }

}  // namespace memsim
