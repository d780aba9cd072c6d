// CPU seconds this process has used: the bench programs time their own simulation with
// it, so start-up and teardown stay out of their per-activity figures.
#pragma once

#include <time.h>

inline double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}
