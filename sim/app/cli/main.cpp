// memsim command line: parse arguments, call the library, print. No logic here.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "sim/app/cli/commands.h"

int main(int argc, char** argv) {
    const int code = memsim::cli::run_cli(argc, argv);
    // Leave without running static destructors: tearing down SimGrid and the ns-3
    // libraries it loads costs milliseconds per run and writes nothing. Every file we
    // write is closed by then; flush the standard streams ourselves.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
}
