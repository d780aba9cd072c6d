// What one simulation answers: the summary's numbers and the event log every output
// reads; and the error a broken invariant raises.
#pragma once

#include <stdexcept>

#include "sim/engine/event_log.h"
#include "sim/engine/summary.h"

namespace memsim {

struct RunResult {
    Summary summary;
    EventLog log;
};

// An invariant of the run broke (a tensor used while swapped out, memory negative,
// bytes not freed at the end): a bug in a model, reported with the operator.
class InvariantError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

}  // namespace memsim
