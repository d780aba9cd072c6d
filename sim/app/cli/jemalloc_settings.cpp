// jemalloc's settings, compiled into the programs that allocate with it (memsim and the
// benchmarks' loops; not the tests, the Python module or the sanitizer builds). jemalloc
// reads this symbol once, at its first allocation; MALLOC_CONF in the environment still
// overrides it.
//
// thp:always: jemalloc asks the kernel for transparent huge pages for its heap. A run
// grows by a few hundred bytes per operator (workload, tensor table, allocator model), and
// the first touch of each 4 KiB page is a page fault: huge pages take 0.3 us per activity
// off bench/per_activity.sh (docs/performance.md, "Allocator"). A sweep's process pool
// turns them off for itself and its points (sim/app/sweep/process_pool.cpp).
extern "C" {
__attribute__((used, visibility("default"))) const char* malloc_conf = "thp:always";
}
