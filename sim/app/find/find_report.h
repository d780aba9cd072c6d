// The text `memsim find` prints: what was sought, every point evaluated (by value, with
// the fields the condition reads), whether the response was monotone, and the answer.
#pragma once

#include <string>

#include "sim/app/find/find_run.h"

namespace memsim {

std::string find_report(const FindRequest& request, const FindOutcome& outcome, std::size_t errors, const std::string& first_error);

}  // namespace memsim
