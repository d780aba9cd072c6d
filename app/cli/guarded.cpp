#include <exception>
#include <iostream>

#include "app/cli/commands.h"

namespace memsim::cli {

namespace {
int g_exit_code = 0;
}

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

void guarded(const std::function<void()>& body) {
    try {
        body();
    } catch (const std::exception& e) {
        std::cerr << "memsim: error: " << e.what() << "\n";
        g_exit_code = kExitError;
    }
}

}  // namespace memsim::cli
