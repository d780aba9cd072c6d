// CPU seconds this process has used: the solvers' times (CBC's time limit counts CPU time
// too, so on a loaded machine a solve takes longer than its limit on the wall clock).
#pragma once

#include <time.h>

namespace memsim::optimal {

inline double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace memsim::optimal
