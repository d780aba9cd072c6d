// The start-up floor: a program that does nothing. Built twice (bench/CMakeLists.txt):
// plain, and linked with Debian's libsimgrid (which loads ns-3 and Boost before main),
// so the difference is what linking SimGrid costs a process before main.
#ifdef LINK_SIMGRID
#include <simgrid/s4u/Engine.hpp>
#endif

int main(int argc, char**) {
#ifdef LINK_SIMGRID
    // A real reference, so the linker keeps the library even with --as-needed.
    if (argc > 1000) return static_cast<int>(simgrid::s4u::Engine::get_clock());
#else
    (void)argc;
#endif
    return 0;
}
