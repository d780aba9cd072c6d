// The reference simulator's read issue rule (policy.semantics: reference): not a
// user-selectable prefetch rule, the one those semantics bring.
#pragma once

#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

std::unique_ptr<PrefetchRule> make_reference_prefetch();

}  // namespace memsim
