#include <csignal>
#include <exception>
#include <filesystem>
#include <iostream>

#include "models/io/input_file.h"
#include "sim/app/cli/commands.h"
#include "sim/app/run/child_process.h"

namespace memsim::cli {

namespace {
int g_exit_code = 0;
}

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

std::string error_message(const std::exception& e) {
    // A file system call the code did not expect to fail: memsim's format (the path,
    // then the reason in words), not the library's "filesystem error: ...".
    if (const auto* fs_error = dynamic_cast<const std::filesystem::filesystem_error*>(&e))
        return (fs_error->path1().empty() ? std::string("(no path)") : fs_error->path1().string()) + ": " +
               path_error_text(fs_error->code().value());
    return e.what();
}

void guarded(const std::function<void()>& body) {
    try {
        body();
    } catch (const StoppedBySignal& e) {
        // End the way the signal would have ended memsim: the caller's shell sees it.
        std::cerr << "memsim: " << e.what() << "\n";
        std::cerr.flush();
        std::signal(e.signum(), SIG_DFL);
        std::raise(e.signum());
        g_exit_code = 128 + e.signum();  // only if the signal is blocked
    } catch (const std::exception& e) {
        std::cerr << "memsim: error: " << error_message(e) << "\n";
        g_exit_code = kExitError;
    }
}

}  // namespace memsim::cli
